/** Texts of `cli help`, `cli help <tool>` and `cli list`, all read from the catalogue. */
import { VERSION } from "../config.ts";
import type { AnyToolDef } from "../tools/tool_def.ts";
import { describeFields, exampleCommands } from "./fields.ts";

export const USAGE = `science-mcp ${VERSION}: MCP server and CLI for PubMed, NCBI Gene, PubChem, papers and local PDFs.

Usage:
  deno task cli list [--json]                 List the enabled tools
  deno task cli help <tool>                   Arguments and examples of one tool
  deno task cli call <tool> '<json args>'     Call a tool with a JSON object
  deno task cli call <tool> --name value ...  Call a tool with flags (repeat a flag for a list)
  deno task cli call <tool> ... --out FILE    Also write an attached image (a structure PNG) to FILE
  deno task cli call <tool> ... --max-chars N This call's output budget (default SCIENCE_MCP_MAX_OUTPUT_CHARS)
  deno task cli serve [--transport stdio|http] [--port N] [--mock URL]
                                              Run the MCP server (default: MCP_TRANSPORT_TYPE);
                                              --mock points unset base URLs at deno task mock
  deno task cli version

A call prints the result (structuredContent) as JSON on stdout and exits 0. A tool error prints its
error envelope as JSON on stdout and exits 2. A usage or configuration error, a permission the command
lacks, or a PDF that does not exist (file_exists: false) prints a message on stderr and exits 1.
Progress and logs go to stderr. Configuration comes from environment variables (see README).`;

export function toolList(tools: readonly Pick<AnyToolDef, "name" | "toolset" | "title">[]): string {
  const width = Math.max(4, ...tools.map((t) => t.name.length));
  const setWidth = Math.max(7, ...tools.map((t) => t.toolset.length));
  const lines = tools.map((t) => `${t.name.padEnd(width)}  ${t.toolset.padEnd(setWidth)}  ${t.title}`);
  return [`${"TOOL".padEnd(width)}  ${"TOOLSET".padEnd(setWidth)}  TITLE`, ...lines].join("\n");
}

export function annotationSummary(def: AnyToolDef): string {
  const a = def.annotations;
  return [
    a.readOnlyHint ? "read-only" : "writes",
    a.idempotentHint ? "idempotent" : "not idempotent",
    a.openWorldHint ? "calls external services" : "local only",
    ...(a.destructiveHint ? ["destructive"] : []),
  ].join(", ");
}

/** Terminal width the help text is wrapped to. */
const WIDTH = 100;
/** Widest `--name <type>` column; longer enumerations show their base type and list their values below. */
const HEAD_MAX = 36;

export function toolHelp(def: AnyToolDef): string {
  const fields = describeFields(def);
  const heads = fields.map((f) => {
    const full = `--${f.name} <${f.type}>`;
    if (full.length <= HEAD_MAX || !f.values) return full;
    return `--${f.name} <${f.type.endsWith("[]") ? "string[]" : "string"}>`;
  });
  const width = Math.max(10, ...heads.map((h) => h.length).filter((n) => n <= HEAD_MAX));
  const args = fields.flatMap((f, i) => {
    const summarised = heads[i] !== `--${f.name} <${f.type}>`;
    const inline = summarised && f.values!.join(", ").length <= 60;
    const listed = summarised && !inline;
    const notes = [
      f.required ? "required" : undefined,
      f.default !== undefined ? `default ${f.default}` : undefined,
      inline ? `one of: ${f.values!.join(", ")}` : undefined,
      listed ? `one of ${f.values!.length} values, below` : undefined,
      ...f.constraints,
    ].filter(Boolean).join("; ");
    const text = `${f.description}${notes ? ` (${notes})` : ""}`;
    const lines = heads[i].length > width
      ? [`  ${heads[i]}`, ...wrap(text, WIDTH - width - 4).map((l) => `${" ".repeat(width + 4)}${l}`)]
      : wrap(text, WIDTH - width - 4).map((l, n) => `  ${(n ? "" : heads[i]).padEnd(width)}  ${l}`);
    if (listed) lines.push(...wrap(f.values!.join(", "), WIDTH - 6).map((l) => `      ${l}`));
    return lines;
  });
  const examples = (def.examples as Record<string, unknown>[]).flatMap((example) => {
    const { json, flags } = exampleCommands(def, example);
    return [`  ${json}`, `  ${flags}`];
  });
  return [
    `${def.name}: ${def.title}`,
    `toolset ${def.toolset}; ${annotationSummary(def)}`,
    "",
    ...wrap(def.description, WIDTH),
    "",
    "Arguments:",
    ...(args.length ? args : ["  (none)"]),
    "",
    "Examples:",
    ...(examples.length ? examples : ["  (none)"]),
  ].join("\n");
}

/** Splits text into lines of at most `width` characters at spaces (a longer word keeps its own line). */
export function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  return line ? [...lines, line] : [""];
}
