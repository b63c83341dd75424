/**
 * Every tool's inputSchema and outputSchema, as tools/list sends them, is a valid JSON Schema 2020-12
 * document: checked against the 2020-12 meta-schema with the Ajv2020 engine the SDK bundles, and
 * compiled, so a client validating arguments or results with a 2020-12 validator can use it as is.
 */
import assert from "node:assert/strict";
import { connectClient, testRuntime } from "../helpers/runtime.ts";
import { AjvJsonSchemaValidator } from "../e2e/sdk_client.ts";

const DIALECT = "https://json-schema.org/draft/2020-12/schema";

interface Ajv2020 {
  validateSchema(schema: unknown): boolean | Promise<unknown>;
  compile(schema: unknown): unknown;
  errors?: unknown;
}

/** The provider's 2020-12 engine (TypeScript-private `ajv` getter; the SDK exports no Ajv2020 class). */
function ajv2020(): Ajv2020 {
  return (new AjvJsonSchemaValidator() as unknown as { ajv: Ajv2020 }).ajv;
}

Deno.test("every tool's input and output schema is valid JSON Schema 2020-12", async () => {
  const ajv = ajv2020();
  const { client, close } = await connectClient(testRuntime());
  try {
    const { tools } = await client.listTools();
    assert.ok(tools.length > 0);
    for (const tool of tools) {
      for (const [kind, schema] of [["inputSchema", tool.inputSchema], ["outputSchema", tool.outputSchema]] as const) {
        assert.ok(schema, `${tool.name} has an ${kind}`);
        const declared = (schema as { $schema?: string }).$schema;
        assert.ok(declared === undefined || declared === DIALECT, `${tool.name}.${kind} declares ${declared}`);
        const valid = ajv.validateSchema({ $schema: DIALECT, ...schema });
        assert.equal(valid, true, `${tool.name}.${kind}: ${JSON.stringify(ajv.errors)}`);
        assert.doesNotThrow(() => ajv.compile({ $schema: DIALECT, ...schema }), `${tool.name}.${kind} compiles`);
      }
    }
  } finally {
    await close();
  }
});

Deno.test("the 2020-12 check catches an invalid schema", () => {
  const ajv = ajv2020();
  assert.equal(ajv.validateSchema({ $schema: DIALECT, type: "object", properties: { a: { type: 42 } } }), false);
  assert.equal(ajv.validateSchema({ $schema: DIALECT, type: "object", required: "a" }), false);
});
