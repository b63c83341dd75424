/**
 * Regressions the fuzzer found, pinned down: an INVALID_INPUT must name the offending field by its path,
 * including an unknown key nested inside an object argument, so a model knows where to look; a top-level
 * `__proto__` key (which the SDK's request schema drops before the server sees it) is refused by the
 * server's own argument parser when it does arrive, and never reaches Object.prototype.
 */
import assert from "node:assert/strict";
import { ALL_TOOLS } from "../../src/catalog.ts";
import { parseArguments } from "../../src/core/invoke.ts";
import { ToolError } from "../../src/core/errors.ts";
import { inputJsonSchema } from "../../src/core/json_schema.ts";
import { namedFields } from "./fuzz_check.ts";
import { openFuzzWorld } from "./fuzz_world.ts";

/** Tools with an object-typed argument, and that argument's name. */
const NESTED = ALL_TOOLS.flatMap((def) => {
  const properties = (inputJsonSchema(def).properties ?? {}) as Record<string, { type?: string }>;
  return Object.entries(properties).filter(([, s]) => s.type === "object").map(([field]) => ({ def, field }));
});

Deno.test({
  name: "an unknown key inside an object argument is refused naming its path (e.g. dateRange.bogus)",
  ignore: NESTED.length === 0,
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async (t) => {
    const world = await openFuzzWorld();
    try {
      for (const { def, field } of NESTED) {
        await t.step(`${def.name}.${field}`, async () => {
          const args = { ...def.examples[0], [field]: { bogus_key: 1 } };
          const r = await world.client.callTool({ name: def.name, arguments: args });
          const error = (r.structuredContent as { error: { code: string; message: string; invalid_input: unknown } })
            .error;
          assert.equal(error.code, "INVALID_INPUT");
          assert.deepEqual(namedFields(error.invalid_input), [`${field}.bogus_key`], error.message);
        });
      }
    } finally {
      await world.close();
    }
  },
});

Deno.test("a top-level __proto__ argument is an unknown key for every tool, and pollutes nothing", () => {
  for (const def of ALL_TOOLS) {
    const args = JSON.parse(
      `{"__proto__": {"polluted": true}${Object.keys(def.examples[0] ?? {}).length ? "," : ""} ${
        JSON.stringify(def.examples[0] ?? {}).slice(1)
      }`,
    );
    assert.throws(() => parseArguments(def, args), (error: unknown) => {
      assert.ok(error instanceof ToolError && error.code === "INVALID_INPUT", def.name);
      assert.deepEqual(namedFields(error.invalidInput), ["__proto__"], def.name);
      return true;
    });
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  }
});
