import assert from "node:assert/strict";
import { eagerCatalogue } from "../../src/manifest.ts";
import { z } from "zod";
import { type CliIo, EXIT_OK, EXIT_USAGE, runCli } from "../../src/cli/main.ts";
import { systemClock } from "../../src/core/clock.ts";
import { DEFAULT_OUTPUT_MAX_CHARS } from "../../src/core/output_budget.ts";
import type { Runtime } from "../../src/runtime.ts";
import { defineTool } from "../../src/tools/tool_def.ts";
import { testRuntime } from "../helpers/runtime.ts";

/** A tool that returns `n` records of 100 characters each. */
const many = defineTool({
  name: "many_test",
  title: "Many records",
  toolset: "pdf",
  description: 'Returns n records. Example: {"n":3}',
  input: z.object({ n: z.number().int().min(1).max(10_000).describe("How many") }),
  output: z.object({ items: z.array(z.string()) }),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  examples: [{ n: 3 }],
  run: (args) => Promise.resolve({ items: Array.from({ length: args.n }, (_, i) => String(i).padEnd(100, ".")) }),
  render: (r) => r.items.join("\n"),
});

function io(): CliIo & { out: string; err: string } {
  const base = testRuntime({ clock: systemClock });
  const runtime: Runtime = { ...base, catalogue: eagerCatalogue([many]) };
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

Deno.test("the CLI cuts a result to the output budget unless --max-chars says otherwise", async () => {
  const plain = io();
  assert.equal(await runCli(["call", "many_test", '{"n":1000}'], plain), EXIT_OK);
  const kept = (JSON.parse(plain.out).items as string[]).length;
  assert.ok(kept < 1000 && kept * 101 <= DEFAULT_OUTPUT_MAX_CHARS, `${kept} items kept`);

  const wide = io();
  assert.equal(await runCli(["call", "many_test", "--n", "1000", "--max-chars", "200000"], wide), EXIT_OK);
  assert.equal(JSON.parse(wide.out).items.length, 1000);
});

Deno.test("--max-chars needs a whole number of at least 2000", async () => {
  const c = io();
  assert.equal(await runCli(["call", "many_test", "--n", "3", "--max-chars", "10"], c), EXIT_USAGE);
  assert.match(c.err, /--max-chars needs a whole number of at least 2000/);
});
