/**
 * The text block of a tool result, as compact Markdown. Many MCP clients hand the model only `content`
 * text, never structuredContent, so the text must carry the whole answer: a heading per record, `key: value`
 * lines, lists. Tool renders compose these helpers with a one-line summary and keep only what is special to
 * them (how an author or a date reads); everything else is rendered field by field, so a field added to a
 * tool's output shows up in its text without touching the render.
 *
 * Values are written verbatim (no escaping, no rounding, long text kept whole): what the model reads is what
 * structuredContent holds. tests/contract/text_coverage_test.ts checks that for every tool.
 */

/**
 * Keys whose values serve machines, not readers: the upstream request URLs and methods, and echoes of the
 * call's own arguments. They stay in structuredContent and are left out of the text (with their subtree).
 */
export const MACHINE_KEYS: ReadonlySet<string> = new Set([
  "eSearchUrl",
  "eSummaryUrl",
  "eLinkUrl",
  "eFetchUrl",
  "eFetchDetails",
  "searchParameters",
  "request_url",
]);

export type Lines = string[];

/**
 * Starts a line the server wrote for the model to act on (a next-page line, a hint, a summary): it stays
 * outside the fence of retrieved text (untrusted.ts). A C0 control, which nothing retrieved can carry
 * (src/core/control_chars.ts strips them); removed when the text is fenced.
 */
export const SERVER_LINE = "\u0001";

/**
 * Marks a first line that holds retrieved text (a paper's title as the heading, a record's name): the
 * first line of a text block is otherwise the server's summary and stays outside the fence.
 */
export const DATA_LINE = "\u0002";

/** `text` without the SERVER_LINE and DATA_LINE marks (a marked line quoted inside a sentence). */
export function unmarked(text: string | undefined): string | undefined {
  return text?.replaceAll(SERVER_LINE, "").replaceAll(DATA_LINE, "");
}

/** `text` marked as the server's own line (see {@link SERVER_LINE}). */
export function serverLine(text: string): string;
export function serverLine(text: string | undefined): string | undefined;
export function serverLine(text: string | undefined): string | undefined {
  return text === undefined ? undefined : SERVER_LINE + text.replaceAll(SERVER_LINE, "");
}
type Scalar = string | number | boolean;
/** Renders one field's value as lines (the first usually starting with `key:`), replacing the generic form. */
export type FieldFormat = (value: never, key: string) => string | Lines | undefined;

export interface FieldOptions {
  /** Keys rendered elsewhere (in the heading or the summary). */
  omit?: readonly string[];
  /** Special renderings by key; other keys get the generic one. */
  format?: Readonly<Record<string, FieldFormat>>;
  indent?: string;
}

/**
 * `key: value` lines for the fields of one record, in the record's key order. Empty values (absent, null,
 * "", [], {}) are skipped; arrays of scalars become one comma list; nested records become indented lines or,
 * when small, one `a: x; b: y` line; text with line breaks follows its `key:` line unindented and unchanged.
 *
 * @example
 * fieldLines({ symbol: "TP53", aliases: ["p53", "LFS1"] }) // ["symbol: TP53", "aliases: p53, LFS1"]
 */
export function fieldLines(record: object, options: FieldOptions = {}): Lines {
  const indent = options.indent ?? "";
  const lines: Lines = [];
  for (const [key, value] of Object.entries(record)) {
    if (options.omit?.includes(key) || MACHINE_KEYS.has(key) || isEmpty(value)) continue;
    const format = options.format?.[key];
    const custom = format ? format(value as never, key) : undefined;
    if (custom !== undefined) lines.push(...[custom].flat().map((line) => indent + line));
    else lines.push(...valueLines(key, value, indent));
  }
  return lines;
}

/** A Markdown heading followed by the record's fields: the usual shape of one record in a text block. */
export function recordSection(title: string, record: object, options: FieldOptions & { level?: number } = {}): Lines {
  return ["", `${"#".repeat(options.level ?? 2)} ${title}`, ...fieldLines(record, options)];
}

/**
 * A list of scalars on one line: `, ` between items, or `; ` when an item itself holds a comma (chemical
 * names do); as bullets when an item holds both or spans lines.
 */
export function inlineList(values: readonly Scalar[]): string | undefined {
  const texts = values.map(scalarText);
  if (texts.some((t) => t.includes("\n"))) return undefined;
  if (!texts.some((t) => t.includes(","))) return texts.join(", ");
  if (!texts.some((t) => t.includes(";"))) return texts.join("; ");
  return undefined;
}

/**
 * Joins a summary line and blocks of lines into the text block. Only empty lines at either end are dropped:
 * values inside are never reflowed (a paper's text keeps its blank lines).
 */
export function textBlock(...parts: (string | Lines | undefined | false)[]): string {
  const lines = parts.flatMap((p) => (p === undefined || p === false ? [] : [p].flat()));
  let start = 0;
  let end = lines.length;
  while (start < end && lines[start] === "") start++;
  while (end > start && lines[end - 1] === "") end--;
  return lines.slice(start, end).join("\n");
}

/** `3 genes`, `1 gene`. */
export function count(n: number, singular: string, plural = `${singular}s`): string {
  return `${n} ${n === 1 ? singular : plural}`;
}

/** The paging line every paginated tool ends with. */
export function nextPage(cursor: string | undefined, argument = "cursor"): string | undefined {
  return cursor === undefined ? undefined : serverLine(`next page: call again with ${argument}="${cursor}"`);
}

/** Warnings, one line each: `warning Code: message`. */
export function warningLines(warnings: readonly { code: string; message: string }[] | undefined): Lines {
  return (warnings ?? []).map((w) => `warning ${w.code}: ${w.message}`);
}

function valueLines(key: string, value: unknown, indent: string): Lines {
  if (typeof value === "string") {
    return value.includes("\n") ? [`${indent}${key}:`, value, ""] : [`${indent}${key}: ${value}`];
  }
  if (isScalar(value)) return [`${indent}${key}: ${scalarText(value)}`];
  if (Array.isArray(value)) {
    if (value.every(isScalar)) {
      const inline = inlineList(value);
      return inline === undefined
        ? [`${indent}${key}:`, ...value.map((v) => `${indent}- ${scalarText(v)}`)]
        : [`${indent}${key}: ${inline}`];
    }
    return [`${indent}${key}:`, ...value.flatMap((item) => itemLines(item, indent))];
  }
  const inline = inlineRecord(value as object);
  if (inline !== undefined && indent.length + key.length + inline.length <= 160) return [`${indent}${key}: ${inline}`];
  return [`${indent}${key}:`, ...fieldLines(value as object, { indent: `${indent}  ` })];
}

/** One element of a list of records: a bullet, inline when the record is small and flat. */
function itemLines(item: unknown, indent: string): Lines {
  if (isScalar(item)) return [`${indent}- ${scalarText(item)}`];
  if (Array.isArray(item)) return [`${indent}- ${inlineList(item.filter(isScalar)) ?? ""}`];
  const inline = inlineRecord(item as object);
  if (inline !== undefined && inline.length <= 200) return [`${indent}- ${inline}`];
  const [first, ...rest] = fieldLines(item as object, { indent: `${indent}  ` });
  return first === undefined ? [] : [`${indent}- ${first.trimStart()}`, ...rest];
}

/** `a: x; b: y, z` for a record of scalars and scalar lists, or undefined when it does not fit on a line. */
function inlineRecord(record: object): string | undefined {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(record)) {
    if (MACHINE_KEYS.has(key) || isEmpty(value)) continue;
    if (typeof value === "string" && (value.includes("\n") || value.includes("; "))) return undefined;
    if (isScalar(value)) parts.push(`${key}: ${scalarText(value)}`);
    else if (Array.isArray(value) && value.every(isScalar)) {
      const list = inlineList(value);
      if (list === undefined || list.includes("; ")) return undefined;
      parts.push(`${key}: ${list}`);
    } else return undefined;
  }
  return parts.join("; ");
}

function isScalar(value: unknown): value is Scalar {
  return typeof value === "string" || typeof value === "number" || typeof value === "boolean";
}

function scalarText(value: Scalar): string {
  return typeof value === "boolean" ? (value ? "yes" : "no") : String(value);
}

function isEmpty(value: unknown): boolean {
  if (value === undefined || value === null || value === "") return true;
  if (Array.isArray(value)) return value.length === 0;
  return typeof value === "object" && Object.keys(value).length === 0;
}
