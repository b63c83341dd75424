import assert from "node:assert/strict";
import { eagerCatalogue } from "../../src/manifest.ts";
import { z } from "zod";
import { type CliIo, EXIT_OK, EXIT_TOOL_ERROR, EXIT_USAGE, runCli } from "../../src/cli/main.ts";
import { systemClock } from "../../src/core/clock.ts";
import { ToolError } from "../../src/core/errors.ts";
import { defineTool } from "../../src/tools/tool_def.ts";
import type { Runtime } from "../../src/runtime.ts";
import { testRuntime } from "../helpers/runtime.ts";

const count = defineTool({
  name: "count_test",
  title: "Count to n",
  toolset: "pdf",
  description: 'Counts to n, reporting progress. Example: {"n":3}',
  input: z.object({
    n: z.number().int().min(1).max(10).describe("How far to count"),
    fail: z.boolean().default(false).describe("Fail instead"),
  }),
  output: z.object({ counted: z.number() }),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  examples: [{ n: 3 }],
  async run(args, ctx) {
    if (args.fail) throw new ToolError("NOT_AVAILABLE", "counting is off", "Call count_test without fail.");
    for (let i = 1; i <= args.n; i++) await ctx.progress(i, args.n, `at ${i}`);
    return { counted: args.n };
  },
  render: (r) => `counted ${r.counted}`,
});

function io(): CliIo & { out: string; err: string } {
  const base = testRuntime({ clock: systemClock });
  const runtime: Runtime = { ...base, catalogue: eagerCatalogue([count]) };
  const captured = {
    out: "",
    err: "",
    stdout: (text: string) => void (captured.out += text),
    stderr: (text: string) => void (captured.err += text),
    stderrIsTerminal: false,
    runtime: () => runtime,
  };
  return captured;
}

Deno.test("cli call prints structuredContent and exits 0", async (t) => {
  await t.step("JSON arguments", async () => {
    const c = io();
    assert.equal(await runCli(["call", "count_test", '{"n":2}'], c), EXIT_OK);
    assert.deepEqual(JSON.parse(c.out), { counted: 2 });
  });
  await t.step("flag arguments, with progress lines on stderr", async () => {
    const c = io();
    assert.equal(await runCli(["call", "count_test", "--n", "3"], c), EXIT_OK);
    assert.deepEqual(JSON.parse(c.out), { counted: 3 });
    assert.equal(c.err, "progress 1/3 at 1\nprogress 2/3 at 2\nprogress 3/3 at 3\n");
  });
});

Deno.test("cli call: a tool error prints the envelope on stdout and exits 2", async (t) => {
  await t.step("an error the tool raises", async () => {
    const c = io();
    assert.equal(await runCli(["call", "count_test", "--n", "1", "--fail"], c), EXIT_TOOL_ERROR);
    assert.deepEqual(JSON.parse(c.out), {
      error: { code: "NOT_AVAILABLE", message: "counting is off", recovery_hint: "Call count_test without fail." },
    });
  });
  await t.step("an invalid value, caught by the same validation as MCP", async () => {
    const c = io();
    assert.equal(await runCli(["call", "count_test", "--n", "99"], c), EXIT_TOOL_ERROR);
    const error = JSON.parse(c.out).error;
    assert.equal(error.code, "INVALID_INPUT");
    assert.match(error.message, /'n'/);
  });
});

Deno.test("cli usage errors print a message on stderr and exit 1", async (t) => {
  const cases: [string[], RegExp][] = [
    [["call"], /needs a tool name/],
    [["call", "nope_tool"], /Unknown tool 'nope_tool'/],
    [["call", "count_test", "--m", "1"], /Unknown option --m/],
    [["frobnicate"], /Unknown command 'frobnicate'/],
    [["list", "--yaml"], /Unexpected argument '--yaml'/],
  ];
  for (const [argv, message] of cases) {
    await t.step(argv.join(" "), async () => {
      const c = io();
      assert.equal(await runCli(argv, c), EXIT_USAGE);
      assert.equal(c.out, "");
      assert.match(c.err, message);
    });
  }
});

Deno.test("cli list and help read the catalogue", async (t) => {
  await t.step("list shows the enabled tools; --json gives objects", async () => {
    const c = io();
    assert.equal(await runCli(["list"], c), EXIT_OK);
    assert.match(c.out, /^TOOL\s+TOOLSET\s+TITLE\ncount_test\s+pdf\s+Count to n\n$/);
    const j = io();
    await runCli(["list", "--json"], j);
    assert.deepEqual(JSON.parse(j.out).map((t: { name: string }) => t.name), ["count_test"]);
  });
  await t.step("help without a tool prints usage with the exit codes", async () => {
    const c = io();
    assert.equal(await runCli(["help"], c), EXIT_OK);
    assert.match(c.out, /exits 2/);
  });
  await t.step("version", async () => {
    const c = io();
    assert.equal(await runCli(["--version"], c), EXIT_OK);
    assert.match(c.out, /^science-mcp \d+\.\d+\.\d+\n$/);
  });
});
