import assert from "node:assert/strict";
import { z } from "zod";
import { constraints, exampleCommands } from "../../src/cli/fields.ts";
import { toolHelp } from "../../src/cli/help.ts";
import { ALL_TOOLS } from "../../src/catalog.ts";
import { progressReporter } from "../../src/cli/progress.ts";
import { defineTool } from "../../src/tools/tool_def.ts";

const tool = defineTool({
  name: "find_test",
  title: "Find things",
  toolset: "gene",
  description: 'Finds things. Example: {"query":"BRCA1"}',
  input: z.object({
    query: z.string().min(1).max(300).describe("What to find"),
    limit: z.number().int().min(1).max(100).default(20).describe("How many"),
    kinds: z.array(z.enum(["a", "b"])).optional().describe("Kinds to keep"),
  }),
  output: z.object({ found: z.number() }),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: true },
  examples: [{ query: "BRCA1 human", limit: 5, kinds: ["a", "b"] }],
  run: () => Promise.resolve({ found: 0 }),
  render: () => "",
});

Deno.test("cli help <tool> is built from the schema and the examples", () => {
  const text = toolHelp(tool);
  assert.match(text, /^find_test: Find things\ntoolset gene; read-only, idempotent, calls external services/);
  assert.match(text, /--query <string>\s+What to find \(required; length 1\.\.300\)/);
  assert.match(text, /--limit <integer>\s+How many \(default 20; 1\.\.100\)/);
  assert.match(text, /--kinds <\("a" \| "b"\)\[\]>\s+Kinds to keep/);
  assert.ok(text.includes(`deno task cli call find_test '{"query":"BRCA1 human","limit":5,"kinds":["a","b"]}'`));
  assert.ok(text.includes("deno task cli call find_test --query 'BRCA1 human' --limit 5 --kinds a --kinds b"));
});

Deno.test("example commands quote for the shell", () => {
  const { json, flags } = exampleCommands(tool, { query: "it's" });
  assert.equal(json, `deno task cli call find_test '{"query":"it'"'"'s"}'`);
  assert.equal(flags, `deno task cli call find_test --query 'it'"'"'s'`);
});

Deno.test("progress is a redrawn bar on a terminal", () => {
  let out = "";
  const bar = progressReporter((t) => void (out += t), true);
  bar.update({ progress: 1, total: 4, message: "page 1" });
  bar.update({ progress: 4, total: 4 });
  bar.done();
  assert.equal(out, `\r\x1b[2K[######------------------] 25% page 1\r\x1b[2K[########################] 100%\n`);
});

Deno.test("cli help keeps long enumerations readable: base type in the column, values wrapped below", () => {
  const values = Array.from({ length: 40 }, (_, i) => `PropertyNumber${i}`);
  const wide = defineTool({
    name: "wide_test",
    title: "Many values",
    toolset: "pubchem",
    description: "Word ".repeat(60) + 'Example: {"properties":["PropertyNumber1"]}',
    input: z.object({
      properties: z.array(z.enum(values as [string, ...string[]])).min(1).describe("Properties to return"),
      mode: z.enum(["substructure", "superstructure", "identity"]).describe("How to match"),
    }),
    output: z.object({ found: z.number() }),
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: true },
    examples: [{ properties: ["PropertyNumber1"], mode: "identity" }],
    run: () => Promise.resolve({ found: 0 }),
    render: () => "",
  });
  const text = toolHelp(wide);
  assert.match(
    text,
    /--properties <string\[\]>\s+Properties to return \(required; one of 40 values, below; items ≥ 1\)/,
  );
  assert.match(text, /--mode <string>\s+How to match \(required; one of: substructure, superstructure, identity\)/);
  assert.match(text, /\n {6}PropertyNumber0, PropertyNumber1, /);
  for (const value of values) assert.ok(text.includes(value), value);
  const prose = text.split("\n").filter((line) => !line.includes("deno task cli call"));
  for (const line of prose) assert.ok(line.length <= 100, `${line.length}: ${line}`);
});

Deno.test("cli help of every tool in the catalogue fits 100 columns outside the example commands", () => {
  for (const def of ALL_TOOLS) {
    for (const line of toolHelp(def).split("\n").filter((l) => !l.includes("deno task cli call"))) {
      assert.ok(line.length <= 100, `${def.name}: ${line}`);
    }
  }
});

Deno.test("bounds print exclusive ends as strict: '> 0', not '≥ 0'", () => {
  assert.deepEqual(constraints({ type: "integer", exclusiveMinimum: 0 }), ["> 0"]);
  assert.deepEqual(constraints({ type: "integer", exclusiveMinimum: 0, maximum: 100 }), ["> 0, ≤ 100"]);
  assert.deepEqual(constraints({ type: "number", minimum: 0, exclusiveMaximum: 1 }), ["≥ 0, < 1"]);
  assert.deepEqual(constraints({ type: "integer", minimum: 1, maximum: 100 }), ["1..100"]);
  assert.deepEqual(constraints({ type: "array", items: { type: "integer", exclusiveMinimum: 0 } }), ["each > 0"]);
});
