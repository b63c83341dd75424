/**
 * The generated manifest (src/generated/manifest.json), which tools/list and resources/list are answered
 * from before any tool module is imported, against the zod catalogue it was generated from.
 */
import assert from "node:assert/strict";
import { ALL_TOOLS, TOOLSETS } from "../../src/catalog.ts";
import { TOOLSET_NAMES } from "../../src/config.ts";
import MANIFEST from "../../src/generated/manifest.json" with { type: "json" };
import { lazyCatalogue, TOOLSET_LOADERS } from "../../src/lazy_catalog.ts";
import { manifest, MANIFEST_FILE, renderManifest } from "../../src/manifest.ts";

const STALE = "src/generated/manifest.json is out of date: run `deno task docs`";

Deno.test("the generated manifest equals what the zod catalogue gives now, tool by tool", async () => {
  const now = manifest();
  const file = MANIFEST as unknown as typeof now;
  assert.deepEqual(file.toolsets.map((t) => t.name), now.toolsets.map((t) => t.name), STALE);
  for (const [i, toolset] of now.toolsets.entries()) {
    for (const [j, tool] of toolset.tools.entries()) {
      assert.deepEqual(file.toolsets[i].tools[j], JSON.parse(JSON.stringify(tool)), `${tool.name}: ${STALE}`);
    }
    assert.deepEqual(file.toolsets[i].tools.length, toolset.tools.length, `${toolset.name}: ${STALE}`);
    assert.deepEqual(file.toolsets[i].resources, JSON.parse(JSON.stringify(toolset.resources)), STALE);
  }
  assert.equal(await Deno.readTextFile(MANIFEST_FILE), renderManifest(), STALE);
});

Deno.test("the catalogue with every toolset lists every tool and resource of the eager catalogue, in order", () => {
  const catalogue = lazyCatalogue(TOOLSET_NAMES);
  assert.deepEqual(catalogue.tools.map((t) => t.name), ALL_TOOLS.map((t) => t.name));
  assert.deepEqual(catalogue.resources.map((r) => r.name), TOOLSETS.flatMap((t) => t.resources.map((r) => r.name)));
});

Deno.test("each toolset's loader gives the very definitions of the eager catalogue", async () => {
  for (const toolset of TOOLSETS) {
    const loaded = await TOOLSET_LOADERS[toolset.name]();
    assert.deepEqual(loaded.tools, toolset.tools, toolset.name);
    assert.deepEqual(loaded.resources, toolset.resources, toolset.name);
  }
});
