/**
 * Limits on JSON arriving over a wire, checked on the raw bytes before JSON.parse: nesting depth (100k
 * nested arrays parse, slowly, and then overflow the stack of whatever walks them), the request id of a
 * message too large or too deep to parse (so its error can still be addressed to it), and short
 * previews of untrusted text for errors and logs.
 */

/** Far deeper than any MCP message or tool argument needs; shallow enough for every recursive walker. */
export const MAX_JSON_DEPTH = 64;

/** Longest excerpt of client input repeated in an error or a log record. */
export const PREVIEW_CHARS = 200;

/** True when arrays/objects nest deeper than `max` (brackets inside strings do not count). */
export function nestsDeeperThan(bytes: Uint8Array, max = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (inString) {
      if (b === 0x5c) i++; // backslash: skip the escaped byte
      else if (b === 0x22) inString = false;
    } else if (b === 0x22) inString = true;
    else if (b === 0x5b || b === 0x7b) {
      if (++depth > max) return true;
    } else if (b === 0x5d || b === 0x7d) depth--;
  }
  return false;
}

/**
 * The `id` of a JSON-RPC message read from its first bytes, when it sits at the top level of an object
 * (clients put it first); undefined when it cannot be told apart from an `id` deeper inside.
 */
export function recoverId(head: Uint8Array): string | number | undefined {
  const text = new TextDecoder().decode(head.subarray(0, 4096));
  let depth = 0;
  let topIsObject = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      const end = stringEnd(text, i);
      if (end < 0) return undefined;
      if (depth === 1 && topIsObject && text.slice(i, end + 1) === '"id"') {
        const value = /^\s*:\s*(-?\d{1,15}(?![.\deE])|"(?:[^"\\]|\\.){0,256}")/.exec(text.slice(end + 1));
        return value ? JSON.parse(value[1]) : undefined;
      }
      i = end;
    } else if (c === "{" || c === "[") {
      if (depth === 0) topIsObject = c === "{";
      depth++;
    } else if (c === "}" || c === "]") depth--;
  }
  return undefined;
}

/** `text` cut to `max` characters, saying how much was left out. */
export function preview(text: string, max = PREVIEW_CHARS): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length - max} more characters)`;
}

function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === '"') return i;
  }
  return -1;
}
