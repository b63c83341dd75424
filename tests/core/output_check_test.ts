/**
 * Every tool's output is checked against its outputSchema before it is rendered (invoke.ts): a handler that
 * returns the wrong shape fails the call with INTERNAL and a logged reason, never a result that breaks its schema,
 * and what passes is the schema's parse (unknown keys dropped), at any depth.
 */
import assert from "node:assert/strict";
import { z } from "zod";
import { ManualClock } from "../../src/core/clock.ts";
import { invokeTool } from "../../src/core/invoke.ts";
import { memoryLogger } from "../../src/core/log.ts";
import type { InvokeContext, ToolDef } from "../../src/core/tool_def.ts";

const output = z.object({
  count: z.number().int(),
  items: z.array(z.object({ id: z.string(), year: z.number().int().optional() })),
});

function returning(value: unknown): ToolDef<z.ZodObject, typeof output, InvokeContext> {
  return {
    name: "shaped",
    title: "Shaped",
    toolset: "test",
    description: "returns what the test gives it",
    input: z.object({}),
    output,
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    examples: [{}],
    run: () => Promise.resolve(value as z.infer<typeof output>),
    render: (r) => `${r.count} items`,
  };
}

const context = () => ({ clock: new ManualClock(0), log: memoryLogger() });

Deno.test("an output that matches its schema is answered as the schema parses it: unknown keys dropped at every depth", async () => {
  const ctx = context();
  const result = await invokeTool(
    returning({ count: 2, extra: "x", items: [{ id: "a", year: 2020, note: "y" }, { id: "b" }] }),
    {},
    ctx,
  );
  assert.equal(result.isError, undefined);
  assert.deepEqual(result.structuredContent, { count: 2, items: [{ id: "a", year: 2020 }, { id: "b" }] });
});

Deno.test("an output that breaks its schema, at the top or inside an item, fails the call with INTERNAL and a logged reason", async () => {
  for (const bad of [{ count: "2", items: [] }, { count: 1, items: [{ id: 7 }] }, { count: 1.5, items: [] }, null]) {
    const ctx = context();
    const result = await invokeTool(returning(bad), {}, ctx);
    assert.equal(result.isError, true, JSON.stringify(bad));
    assert.equal((result.structuredContent as { error: { code: string } }).error.code, "INTERNAL");
    assert.ok(
      ctx.log.records.some((r) => r.msg === "tool output does not match its outputSchema"),
      `logged for ${JSON.stringify(bad)}`,
    );
  }
});
