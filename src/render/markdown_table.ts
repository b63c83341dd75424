/** The Markdown table every chart tool puts in its text block: the chart's numbers, for a text-only reader. */

/** A GitHub-flavoured Markdown table; absent cells are "–", pipes inside cells are escaped. */
export function markdownTable(header: string[], rows: (string | number | undefined)[][]): string {
  const cell = (value: string | number | undefined) =>
    value === undefined ? "–" : String(value).replace(/\|/g, "\\|").replace(/\s+/g, " ");
  return [
    `| ${header.map(cell).join(" | ")} |`,
    `|${header.map(() => "---").join("|")}|`,
    ...rows.map((row) => `| ${row.map(cell).join(" | ")} |`),
  ].join("\n");
}
