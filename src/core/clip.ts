/**
 * Bounded copies of caller-supplied values for echoing back (invalid_input) and for logs: long strings,
 * long arrays, wide or deep objects are cut with a marker saying how much was left out, so a hostile or
 * careless argument can neither flood a log nor come back whole in an error.
 */

export interface ClipLimits {
  /** Characters kept of a string. */
  chars: number;
  /** Items kept of an array, keys of an object. */
  items: number;
  /** Nesting kept; deeper arrays and objects become a marker. */
  depth: number;
}

/** For values echoed to a caller (invalid_input) and for logged tool arguments. */
export const ECHO_LIMITS: ClipLimits = { chars: 300, items: 20, depth: 4 };

/** How a clipped copy may change what it keeps (the log's redaction): each kept string, each keyed value. */
export interface ClipMap {
  text(clipped: string): string;
  /** What stands for the value under `key`, or undefined to clip that value as usual. */
  keyed(key: string): unknown;
}

/** A copy of `value` within `limits` (values that fit come back equal, unless `map` changes them). */
export function clipValue(value: unknown, limits: ClipLimits = ECHO_LIMITS, depth = 0, map?: ClipMap): unknown {
  if (typeof value === "string") {
    const clipped = value.length > limits.chars
      ? `${value.slice(0, limits.chars)}…(+${value.length - limits.chars} chars)`
      : value;
    return map ? map.text(clipped) : clipped;
  }
  if (!value || typeof value !== "object") return value;
  if (depth >= limits.depth) return Array.isArray(value) ? "[…]" : "{…}";
  if (Array.isArray(value)) {
    const kept = value.slice(0, limits.items).map((item) => clipValue(item, limits, depth + 1, map));
    return value.length > limits.items ? [...kept, `…(+${value.length - limits.items} items)`] : kept;
  }
  const entries = Object.entries(value);
  const out: Record<string, unknown> = {};
  for (const [key, item] of entries.slice(0, limits.items)) {
    out[key] = map?.keyed(key) ?? clipValue(item, limits, depth + 1, map);
  }
  if (entries.length > limits.items) out["…"] = `+${entries.length - limits.items} keys`;
  return out;
}

/** Characters of a value from a record kept when it is quoted into an error or a warning. */
export const QUOTE_CHARS = 200;

/**
 * A value from a record as an error or warning quotes it: JSON-quoted, cut to {@link QUOTE_CHARS}
 * characters with "…(N characters)" giving the whole length, so a hostile 200,000-character field never
 * comes back whole.
 * @example quoteValue("abc") // '"abc"'
 * @example quoteValue("x".repeat(300)) // '"xxx…x…(300 characters)"' (200 x's)
 */
export function quoteValue(value: unknown): string {
  const text = typeof value === "string" ? value : JSON.stringify(value) ?? String(value);
  return typeof value === "string" ? JSON.stringify(cutValue(text)) : cutValue(text);
}

/**
 * A value from a record as an error or warning shows it unquoted (a URL): cut the same way.
 * @example cutValue("x".repeat(300)) // "xxx…x…(300 characters)" (200 x's)
 */
export function cutValue(text: string): string {
  return text.length > QUOTE_CHARS ? `${text.slice(0, QUOTE_CHARS)}…(${text.length} characters)` : text;
}
