import assert from "node:assert/strict";
import { z } from "zod";
import { parseToolArgs, UsageError } from "../../src/cli/args.ts";
import { defineTool } from "../../src/tools/tool_def.ts";

const tool = defineTool({
  name: "shape_test",
  title: "Shapes",
  toolset: "pubchem",
  description: 'Takes every shape of argument. Example: {"query":"x"}',
  input: z.object({
    query: z.string().describe("Free text"),
    max_records: z.number().int().min(1).max(100).default(10).describe("A number"),
    threshold: z.number().optional().describe("A float"),
    exact: z.boolean().default(false).describe("A switch"),
    cids: z.array(z.number().int()).optional().describe("A list of numbers"),
    names: z.array(z.string()).optional().describe("A list of strings"),
    dateRange: z.object({ minDate: z.string().optional() }).optional().describe("A nested object"),
    id: z.union([z.string(), z.number()]).optional().describe("A string or a number"),
  }),
  output: z.object({}),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  examples: [{ query: "x" }],
  run: () => Promise.resolve({}),
  render: () => "",
});

const parse = (...argv: string[]) => parseToolArgs(tool, argv);

Deno.test("CLI flags are coerced by the input schema", async (t) => {
  await t.step("strings stay strings, numbers become numbers", () => {
    assert.deepEqual(parse("--query", "123", "--max_records", "5", "--threshold", "0.5"), {
      query: "123",
      max_records: 5,
      threshold: 0.5,
    });
  });
  await t.step("booleans: bare flag, =false, --no- prefix and an explicit value", () => {
    assert.deepEqual(parse("--exact"), { exact: true });
    assert.deepEqual(parse("--exact=false"), { exact: false });
    assert.deepEqual(parse("--no-exact"), { exact: false });
    assert.deepEqual(parse("--exact", "false", "--query", "q"), { exact: false, query: "q" });
  });
  await t.step("lists by repetition (items coerced) or as JSON", () => {
    assert.deepEqual(parse("--cids", "2244", "--cids", "3672"), { cids: [2244, 3672] });
    assert.deepEqual(parse("--names", "1", "--names", "b"), { names: ["1", "b"] });
    assert.deepEqual(parse("--cids", "[1,2]"), { cids: [1, 2] });
  });
  await t.step("nested objects as JSON", () => {
    assert.deepEqual(parse("--dateRange", '{"minDate":"2020"}'), { dateRange: { minDate: "2020" } });
  });
  await t.step("unions take the type the text fits", () => {
    assert.deepEqual(parse("--id", "42"), { id: 42 });
    assert.deepEqual(parse("--id", "PMID:42"), { id: "PMID:42" });
  });
  await t.step("kebab-case names find snake_case fields; --name=value works", () => {
    assert.deepEqual(parse("--max-records=7"), { max_records: 7 });
  });
  await t.step("a JSON object first, flags after it override its keys", () => {
    assert.deepEqual(parse('{"query":"a","cids":[9]}', "--query", "b", "--cids", "1"), { query: "b", cids: [1] });
  });
  await t.step("values that do not fit are passed on for the validator to report", () => {
    assert.deepEqual(parse("--max_records", "many"), { max_records: "many" });
  });
});

Deno.test("CLI argument mistakes are usage errors", async (t) => {
  const cases: [string[], RegExp][] = [
    [["--nope", "1"], /Unknown option --nope.*--query/],
    [["--query"], /--query needs a value/],
    [["--query", "a", "--query", "b"], /given twice/],
    [["{oops"], /not valid JSON/],
    [["[1,2]"], /must be one JSON object/],
    [["--query", "a", "stray"], /Unexpected argument 'stray'/],
    [["--dateRange", "{bad"], /--dateRange is not valid JSON/],
  ];
  for (const [argv, message] of cases) {
    await t.step(argv.join(" "), () => {
      assert.throws(() => parse(...argv), (e: Error) => e instanceof UsageError && message.test(e.message));
    });
  }
});
