import assert from "node:assert/strict";
import { z } from "zod";
import { ALL_TOOLS } from "../../src/catalog.ts";
import GENERATED from "../../src/generated/tool_schemas.json" with { type: "json" };
import { advertisedSchemas, convertedSchemas } from "../../src/tool_schemas.ts";
import type { AnyToolDef } from "../../src/tools/tool_def.ts";

const generated = GENERATED as Record<string, unknown>;

Deno.test("the generated tools/list schemas equal what zod gives now, for every tool", () => {
  for (const def of ALL_TOOLS) {
    assert.deepEqual(
      generated[def.name],
      JSON.parse(JSON.stringify(convertedSchemas(def))),
      `src/generated/tool_schemas.json is out of date for ${def.name}: run \`deno task docs\``,
    );
  }
  const stale = Object.keys(generated).filter((name) => !ALL_TOOLS.some((def) => def.name === name));
  assert.deepEqual(stale, [], "src/generated/tool_schemas.json names tools the catalogue lacks: run `deno task docs`");
});

Deno.test("a catalogue tool is advertised from the generated file", () => {
  for (const def of ALL_TOOLS) assert.equal(advertisedSchemas(def), generated[def.name], def.name);
});

Deno.test("a tool outside the catalogue with a catalogue tool's name is converted from zod, not looked up", () => {
  const real = ALL_TOOLS[0];
  const impostor = {
    ...real,
    input: z.object({ other: z.string().describe("Not the real field.") }),
  } as unknown as AnyToolDef;
  const schemas = advertisedSchemas(impostor);
  assert.deepEqual(Object.keys(schemas.inputSchema.properties as object), ["other"]);
  assert.notEqual(schemas, generated[real.name]);
});
