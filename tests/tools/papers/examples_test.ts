import assert from "node:assert/strict";
import { papersTools } from "../../../src/tools/papers/mod.ts";
import { papersClient } from "./mock.ts";

Deno.test("every papers tool example is answered by the papers mock routes", async (t) => {
  const { call, close, client } = await papersClient();
  try {
    const { tools } = await client.listTools();
    for (const def of papersTools) {
      const listed = tools.find((x) => x.name === def.name);
      assert.ok(listed, `${def.name} is listed`);
      assert.ok(def.examples.length > 0, `${def.name} has examples`);
      assert.match(def.description, /Example: \{/);
      for (const [field, schema] of Object.entries(def.input.shape)) {
        assert.ok((schema as { description?: string }).description, `${def.name}.${field} is described`);
      }
      for (const example of def.examples) {
        await t.step(`${def.name} ${JSON.stringify(example)}`, async () => {
          const result = await call(def.name, example as Record<string, unknown>);
          assert.notEqual(result.isError, true, JSON.stringify(result.structuredContent));
          assert.ok(result.content?.[0]?.text, "a text block");
        });
      }
    }
  } finally {
    await close();
  }
});
