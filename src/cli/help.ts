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
  deno task cli serve [--transport stdio|http] [--port N]
                                              Run the MCP server (default: MCP_TRANSPORT_TYPE)
  deno task cli version

A call prints the result (structuredContent) as JSON on stdout and exits 0. A tool error prints its
error envelope as JSON on stdout and exits 2. A usage error prints a message on stderr and exits 1.
Progress and logs go to stderr. Configuration comes from environment variables (see README).`;

export function toolList(tools: readonly AnyToolDef[]): string {
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

export function toolHelp(def: AnyToolDef): string {
  const fields = describeFields(def);
  const width = Math.max(...fields.map((f) => `--${f.name} <${f.type}>`.length), 10);
  const args = fields.map((f) => {
    const notes = [
      f.required ? "required" : undefined,
      f.default !== undefined ? `default ${f.default}` : undefined,
      ...f.constraints,
    ].filter(Boolean).join("; ");
    return `  ${`--${f.name} <${f.type}>`.padEnd(width)}  ${f.description}${notes ? ` (${notes})` : ""}`;
  });
  const examples = (def.examples as Record<string, unknown>[]).flatMap((example) => {
    const { json, flags } = exampleCommands(def, example);
    return [`  ${json}`, `  ${flags}`];
  });
  return [
    `${def.name}: ${def.title}`,
    `toolset ${def.toolset}; ${annotationSummary(def)}`,
    "",
    def.description,
    "",
    "Arguments:",
    ...(args.length ? args : ["  (none)"]),
    "",
    "Examples:",
    ...(examples.length ? examples : ["  (none)"]),
  ].join("\n");
}
