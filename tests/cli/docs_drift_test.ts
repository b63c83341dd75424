import assert from "node:assert/strict";
import { ALL_TOOLS } from "../../src/catalog.ts";
import { ENV_VARS } from "../../src/config.ts";
import { expectedDocs, README, TOOLS_DOC } from "../../scripts/gen_docs.ts";

Deno.test("docs/tools.md and the README tables match the catalogue (run `deno task docs` if not)", async () => {
  for (const [url, expected] of await expectedDocs()) {
    const actual = await Deno.readTextFile(url);
    assert.ok(actual === expected, `${url.pathname} is out of date: run \`deno task docs\``);
  }
});

Deno.test("the generated docs name every tool and every environment variable", async () => {
  const tools = await Deno.readTextFile(TOOLS_DOC);
  const readme = await Deno.readTextFile(README);
  for (const def of ALL_TOOLS) {
    assert.ok(tools.includes(`### \`${def.name}\``), `docs/tools.md documents ${def.name}`);
    assert.ok(readme.includes(`| \`${def.name}\``), `README lists ${def.name}`);
  }
  for (const v of ENV_VARS) assert.ok(readme.includes(`| \`${v.name}\``), `README lists ${v.name}`);
});
