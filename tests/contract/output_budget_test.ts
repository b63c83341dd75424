/**
 * One output budget for every tool result (#21): every catalogue tool, called with each example's arguments
 * and every count-like argument at its maximum, against the mock upstream, answers with at most the budget's
 * characters of text; a cut answer says so in one line that tells how to get the rest.
 */
import assert from "node:assert/strict";
import { z } from "zod";
import { ALL_TOOLS } from "../../src/catalog.ts";
import { DEFAULT_OUTPUT_MAX_CHARS } from "../../src/core/output_budget.ts";
import { withTools } from "../helpers/tool_harness.ts";

/** Numeric arguments that select rather than size (ids, offsets, thresholds) keep the example's value. */
const NOT_SIZES = /offset|threshold|cid|sid|aid|^size$/i;

interface JsonProperty {
  type?: string | string[];
  maximum?: number;
}

/** The example with every count-like numeric argument of the tool's schema at its maximum. */
function maxedOut(input: z.ZodObject, example: Record<string, unknown>): Record<string, unknown> {
  const schema = z.toJSONSchema(input, { io: "input" }) as { properties?: Record<string, JsonProperty> };
  const args = { ...example };
  for (const [key, property] of Object.entries(schema.properties ?? {})) {
    const types = [property.type].flat();
    if (NOT_SIZES.test(key) || property.maximum === undefined) continue;
    if (types.includes("integer") || types.includes("number")) args[key] = property.maximum;
  }
  return args;
}

for (const budget of [DEFAULT_OUTPUT_MAX_CHARS, 3_000]) {
  Deno.test(`no tool answers with more than ${budget} characters of text, whatever the arguments`, async () => {
    const env = { SCIENCE_MCP_MAX_OUTPUT_CHARS: String(budget), NCBI_MAX_RETRIES: "0" };
    await withTools({ env, driveClock: true }, async (h) => {
      const over: string[] = [];
      let cut = 0;
      let answered = 0;
      for (const def of ALL_TOOLS) {
        for (const example of def.examples as Record<string, unknown>[]) {
          const args = maxedOut(def.input, example);
          const result = await h.call(def.name, args);
          const text = result.content[0].text;
          if (text.length > budget) over.push(`${def.name} ${JSON.stringify(args)}: ${text.length}`);
          if (result.isError) continue;
          answered++;
          const notice = text.split("\n").at(-1)!;
          if (notice.startsWith("cut: ")) {
            cut++;
            assert.match(notice, /output budget; \S/, `${def.name}: the cut line says how to get the rest`);
          }
        }
      }
      assert.deepEqual(over, []);
      assert.ok(answered >= ALL_TOOLS.length, `${answered} calls answered`);
      if (budget < DEFAULT_OUTPUT_MAX_CHARS) assert.ok(cut > 0, "a small budget cuts some answers");
    });
  });
}
