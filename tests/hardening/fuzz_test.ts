/**
 * Property-based fuzzing of every tool's input, through the MCP path (SDK Client → server → invokeTool →
 * handler → pipeline), upstreams answered in-process by the recorded mock routes. FUZZ_RUNS arguments per
 * tool (default 25 in CI; `deno task fuzz` runs 500 per tool, over 10,000 in all); see fuzzSettings for
 * FUZZ_SEED.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { ALL_TOOLS } from "../../src/catalog.ts";
import { argsFor } from "./arbitraries.ts";
import { type CallTally, checkCall, fuzzSettings } from "./fuzz_check.ts";
import { openFuzzWorld } from "./fuzz_world.ts";

const SETTINGS = fuzzSettings();
const RUNS = SETTINGS.numRuns;

Deno.test({
  name: `fuzz: ${RUNS} hostile argument sets per tool never crash the server and are refused by field`,
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async (t) => {
    const protoKeys = Object.getOwnPropertyNames(Object.prototype).sort();
    const world = await openFuzzWorld();
    const summary: string[] = [];
    let total = 0;
    try {
      for (const def of ALL_TOOLS) {
        await t.step(def.name, async () => {
          const tally: CallTally = { ok: 0, codes: {} };
          const details = await fc.check(
            fc.asyncProperty(argsFor(def), async (args) => {
              total++;
              await checkCall(world.client, def, args, tally);
              assert.deepEqual(
                Object.getOwnPropertyNames(Object.prototype).sort(),
                protoKeys,
                "Object.prototype changed",
              );
              assert.equal(({} as Record<string, unknown>).polluted, undefined);
            }),
            { ...SETTINGS, endOnFailure: true },
          );
          if (details.failed) {
            const error = String((details.errorInstance as Error)?.message ?? details.errorInstance).slice(0, 600);
            assert.fail(`${def.name} (replay: FUZZ_SEED=${details.seed}): ${error}`);
          }
          summary.push(`${def.name}: ${tally.ok} ok, ${JSON.stringify(tally.codes)}`);
        });
      }
      // An error-level log record means a handler failed unexpectedly (INTERNAL logs its stack there).
      assert.deepEqual(world.errors.slice(0, 3).map((r) => `${r.msg}: ${JSON.stringify(r).slice(0, 300)}`), []);
    } finally {
      await world.close();
    }
    console.log(`fuzz: ${total} calls over ${ALL_TOOLS.length} tools\n${summary.join("\n")}`);
  },
});
