/**
 * arXiv API `search_query` strings (arXiv API User's Manual §5.1): field prefixes (`ti:`, `au:`, `abs:`,
 * `all:`), Boolean operators (AND, OR, ANDNOT), quoted phrases and `submittedDate:[YYYYMMDDHHMM TO
 * YYYYMMDDHHMM]`. Plain words get the chosen field each, AND-ed; a query already written in arXiv's own
 * syntax is sent as typed.
 */

export type ArxivField = "all" | "ti" | "au" | "abs";

const OWN_SYNTAX = /\b(?:ti|au|abs|co|jr|cat|rn|id|all|submittedDate|lastUpdatedDate):|\b(?:AND|OR|ANDNOT)\b|[()]/;
const TOKEN = /"[^"]*"|[^\s"]+/g;
// deno-lint-ignore no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]+/g;
/** arXiv's first submissions date from August 1991. */
const EARLIEST = "199101010000";
/**
 * Lowercase connectives of natural language ("proteins and ligands"): not search words, and arXiv would
 * require `all:and` in every hit. Uppercase AND/OR stay operators (arXiv's own syntax).
 */
const CONNECTIVES = new Set(["and", "or"]);

/**
 * @example arxivSearchQuery("graph neural", "ti", { from: "2020-01-01", to: "2020-12-31" })
 *   // 'ti:graph AND ti:neural AND submittedDate:[202001010000 TO 202012312359]'
 */
export function arxivSearchQuery(
  query: string,
  field: ArxivField,
  range: { from?: string; to?: string },
  today: string,
): string {
  const text = query.replace(CONTROL, " ").trim();
  const own = OWN_SYNTAX.test(text);
  const terms = own ? text : searchWords(text).map((t) => `${field}:${t}`).join(" AND ");
  if (!terms || (!range.from && !range.to)) return terms;
  const from = range.from ? `${compact(range.from)}0000` : EARLIEST;
  const to = `${compact(range.to ?? today)}2359`;
  return `${own ? `(${terms})` : terms} AND submittedDate:[${from} TO ${to}]`;
}

/** The plain words and quoted phrases of a query, without connectives (unless nothing else is left). */
function searchWords(text: string): string[] {
  const tokens = (text.match(TOKEN) ?? []).filter((t) => t !== '""');
  const words = tokens.filter((t) => !CONNECTIVES.has(t));
  return words.length > 0 ? words : tokens;
}

function compact(day: string): string {
  return day.replaceAll("-", "");
}
