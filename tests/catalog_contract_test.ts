/**
 * The one catalogue contract, for every toolset at once (no per-toolset copies): names, descriptions,
 * schemas, annotations and examples of every ToolDef; then every example is called over MCP against the
 * local mock upstream and its structuredContent must parse against the tool's output schema.
 */
import assert from "node:assert/strict";
import { z } from "zod";
import { ALL_TOOLS, TOOLSETS } from "../src/catalog.ts";
import { TOOLSET_NAMES } from "../src/config.ts";
import { systemClock } from "../src/core/clock.ts";
import { parseArguments } from "../src/core/invoke.ts";
import { inputJsonSchema } from "../src/core/json_schema.ts";
import type { AnyToolDef } from "../src/tools/tool_def.ts";
import { startMockUpstream } from "../scripts/mock_upstream.ts";
import { connectClient, testRuntime } from "./helpers/runtime.ts";

const SNAKE = /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/;
const CAMEL = /^[a-z][a-z0-9]*([A-Z][a-zA-Z0-9]*)*$/;

type Schema = Record<string, unknown>;

/** Paths of object properties (at any depth) that lack a description. */
function undescribed(schema: Schema, path = ""): string[] {
  const out: string[] = [];
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  for (const [name, child] of Object.entries(properties)) {
    const here = path ? `${path}.${name}` : name;
    if (typeof child.description !== "string" || child.description.trim().length < 3) out.push(here);
    out.push(...nested(child, here));
  }
  return out;
}

function nested(schema: Schema, path: string): string[] {
  const out: string[] = [];
  if (schema.properties) out.push(...undescribed(schema, path));
  if (schema.items && typeof schema.items === "object") out.push(...nested(schema.items as Schema, `${path}[]`));
  for (const option of ((schema.anyOf ?? schema.oneOf ?? []) as Schema[])) out.push(...nested(option, path));
  return out;
}

Deno.test("catalogue contract: every ToolDef is complete and consistent", async (t) => {
  const names = ALL_TOOLS.map((d) => d.name);
  await t.step("tool names are unique", () => {
    assert.deepEqual(names.filter((n, i) => names.indexOf(n) !== i), []);
  });
  await t.step("toolsets are the known ones and name their tools in one style", () => {
    assert.deepEqual(TOOLSETS.map((s) => s.name), [...TOOLSET_NAMES]);
    for (const set of TOOLSETS) {
      const styles = new Set(set.tools.map((d) => (d.name.includes("_") || !/[A-Z]/.test(d.name) ? "snake" : "camel")));
      assert.ok(styles.size <= 1, `${set.name} mixes snake_case and camelCase names`);
      for (const def of set.tools) assert.equal(def.toolset, set.name, `${def.name} is filed under ${set.name}`);
    }
  });
  for (const def of ALL_TOOLS) {
    await t.step(def.name, () => checkTool(def));
  }
});

function checkTool(def: AnyToolDef): void {
  assert.ok(SNAKE.test(def.name) || CAMEL.test(def.name), `${def.name}: snake_case or camelCase`);
  assert.ok(def.name.length <= 64, `${def.name}: at most 64 characters`);
  assert.ok(def.title.trim().length > 0, `${def.name}: title`);
  assert.ok(def.description.length >= 80, `${def.name}: a description written for a model (what, when, limits)`);
  assert.match(def.description, /example/i, `${def.name}: the description shows one example call`);
  assert.ok(def.description.length <= 1000, `${def.name}: the description stays small (tools/list budget)`);
  for (const hint of ["readOnlyHint", "idempotentHint", "openWorldHint"] as const) {
    assert.equal(typeof def.annotations[hint], "boolean", `${def.name}: annotations.${hint}`);
  }
  assert.ok(def.input instanceof z.ZodObject && def.output instanceof z.ZodObject, `${def.name}: zod objects`);
  assert.deepEqual(undescribed(inputJsonSchema(def)), [], `${def.name}: every input field is described`);
  assert.ok(def.examples.length >= 1, `${def.name}: at least one example`);
  for (const example of def.examples) {
    assert.doesNotThrow(() => parseArguments(def, example), `${def.name}: example ${JSON.stringify(example)} parses`);
  }
  assert.equal(typeof def.render, "function");
}

Deno.test("catalogue contract: resources are described and uniquely named", () => {
  const resources = TOOLSETS.flatMap((s) => s.resources);
  const names = resources.map((r) => r.name);
  assert.deepEqual(names.filter((n, i) => names.indexOf(n) !== i), []);
  for (const r of resources) {
    assert.ok(r.uri || r.uriTemplate, `${r.name}: uri or uriTemplate`);
    assert.ok(r.description.length > 10, `${r.name}: description`);
    assert.ok(r.mimeType, `${r.name}: mimeType`);
  }
});

Deno.test("catalogue contract: tools/list advertises input and output schemas and annotations", async () => {
  const runtime = testRuntime();
  const { client, close } = await connectClient(runtime);
  try {
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((x) => x.name), ALL_TOOLS.map((d) => d.name));
    for (const tool of tools) {
      assert.equal(tool.inputSchema.type, "object", tool.name);
      assert.equal(tool.outputSchema?.type, "object", `${tool.name}: outputSchema`);
      assert.equal(typeof tool.annotations?.readOnlyHint, "boolean", `${tool.name}: annotations`);
    }
  } finally {
    await close();
  }
});

Deno.test({
  name: "catalogue contract: every example succeeds over MCP against the mock upstream",
  ignore: ALL_TOOLS.length === 0,
  fn: async (t) => {
    // The mock's rate checks are off and NCBI pacing is 0 (testConfig): this test is about outputs;
    // pacing is proven by the upstream tests and the bench.
    const mock = await startMockUpstream({ rates: false });
    const runtime = testRuntime({
      fetch: (request) => fetch(request),
      clock: systemClock,
      env: { ...mock.env, PDF_ROOT: new URL("../files", import.meta.url).pathname },
    });
    const { client, close } = await connectClient(runtime);
    try {
      for (const def of ALL_TOOLS) {
        for (const [i, example] of def.examples.entries()) {
          await t.step(`${def.name} example ${i + 1}`, async () => {
            const result = await client.callTool({ name: def.name, arguments: example });
            assert.notEqual(result.isError, true, JSON.stringify(result.structuredContent));
            const parsed = def.output.safeParse(result.structuredContent);
            assert.ok(parsed.success, parsed.success ? "" : JSON.stringify(parsed.error.issues.slice(0, 3)));
            const content = result.content as { type: string; text: string }[];
            assert.equal(content[0]?.type, "text");
            assert.ok(content[0].text.length > 0, "a text rendering next to structuredContent");
          });
        }
      }
    } finally {
      await close();
      await mock.close();
    }
  },
});
