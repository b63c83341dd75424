/**
 * Control and direction characters out of everything retrieved (#35). A title carrying `ESC[31m`,
 * `ESC]0;… BEL`, `ESC[2J` or U+202E (right-to-left override) would reach a terminal, a log or a model's
 * context as commands or as text that reads backwards. Removed: C0 controls except tab, line feed and
 * carriage return; DEL and every C1 control; the embeddings and overrides U+202A–U+202E and the isolates
 * U+2066–U+2069. Kept: right-to-left letters and the plain marks U+200E/U+200F.
 *
 * Bodies are cleaned where they are decoded (src/upstream/response.ts, the parse worker), before anything
 * parses, caches or counts offsets in them, so paging and match offsets agree with what is shown; escaped
 * forms (`\u001b` in JSON, `&#27;` in XML and HTML) are removed with the raw characters, since the parsers
 * would turn them into the same characters. The fence marks ⟦ ⟧ (src/render/untrusted.ts) become plain
 * brackets at the same point, raw or escaped, so no retrieved text can open or close a fence.
 */
import { neutraliseFences } from "../render/untrusted.ts";

// deno-lint-ignore no-control-regex -- control characters are what it removes
const RAW = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/g;
// deno-lint-ignore no-control-regex -- as above
const ANY_RAW = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/;

/** An escaped fence mark (⟦ U+27E6, ⟧ U+27E7) as the bracket that replaces it, else undefined. */
function escapedFence(code: number): string | undefined {
  return code === 0x27e6 ? "[" : code === 0x27e7 ? "]" : undefined;
}

const RAW_NOT_C0 = /[\u007F-\u009F\u202A-\u202E\u2066-\u2069]/g;

/** Whether code point `code` is one of the characters removed. */
export function isStrippedControl(code: number): boolean {
  return (code <= 0x1f && code !== 0x09 && code !== 0x0a && code !== 0x0d) || (code >= 0x7f && code <= 0x9f) ||
    (code >= 0x202a && code <= 0x202e) || (code >= 0x2066 && code <= 0x2069);
}

/**
 * Text without the control and direction characters listed above (a string without any comes back as is).
 * @example stripControls("a\u001b[31mb\u202Ec") // "a[31mbc"
 */
export function stripControls(text: string): string {
  return ANY_RAW.test(text) ? text.replace(RAW, "") : text;
}

/**
 * A decoded upstream body without those characters, raw or escaped: JSON `\uXXXX` escapes in a body that
 * starts as JSON, numeric character references in one that starts as markup.
 * @example cleanRetrievedText('{"t":"a\\u001b[2Jb"}') // '{"t":"a[2Jb"}'
 */
export function cleanRetrievedText(text: string): string {
  const first = /\S/.exec(text.slice(0, 1024))?.[0];
  const json = first === "{" || first === "[";
  // A raw C0 control is invalid inside JSON: left for the parser to refuse the body, as before.
  let out = neutraliseFences(json ? text.replace(RAW_NOT_C0, "") : stripControls(text));
  const replacement = (m: string, code: number) => escapedFence(code) ?? (isStrippedControl(code) ? "" : m);
  if (json && out.includes("\\u")) {
    // Pairs first, so an escaped backslash before "u" is never read as an escape.
    out = out.replace(
      /\\(?:\\|u([0-9a-fA-F]{4}))/g,
      (m, hex?: string) => hex === undefined ? m : replacement(m, parseInt(hex, 16)),
    );
  } else if (first === "<" && out.includes("&#")) {
    out = out.replace(
      /&#(?:[xX]([0-9a-fA-F]{1,8})|(\d{1,10}));/g,
      (m, hex?: string, dec?: string) => replacement(m, hex !== undefined ? parseInt(hex, 16) : Number(dec)),
    );
  }
  return out;
}
