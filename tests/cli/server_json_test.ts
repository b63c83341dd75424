/** server.json, the MCP Registry entry: valid against the registry's published schema and true to the server. */
import assert from "node:assert/strict";
import { Ajv } from "npm:ajv@8.20.0";
import { ALL_TOOLS } from "../../src/catalog.ts";
import { ENV_VARS, VERSION } from "../../src/config.ts";
import { REGISTRY_SCHEMA, renderServerJson, SERVER_JSON } from "../../scripts/server_json.ts";

const SCHEMA = new URL("../../fixtures/registry/server.schema.2025-12-11.json", import.meta.url);

function validator() {
  const schema = JSON.parse(Deno.readTextFileSync(SCHEMA));
  const ajv = new Ajv({ strict: false, allErrors: true });
  ajv.addFormat("uri", (value: string) => URL.canParse(value));
  return ajv.compile(schema);
}

Deno.test("server.json validates against the MCP Registry's published schema", () => {
  const validate = validator();
  const entry = JSON.parse(Deno.readTextFileSync(SERVER_JSON));
  const valid: boolean = validate(entry);
  assert.ok(valid, JSON.stringify(validate.errors, null, 2));
  assert.equal(entry.$schema, REGISTRY_SCHEMA);
});

Deno.test("the schema check has teeth: entries the registry refuses fail it", () => {
  const validate = validator();
  const entry = JSON.parse(renderServerJson());
  for (
    const broken of [
      { ...entry, name: "no-slash" },
      { ...entry, description: "x".repeat(101) },
      { ...entry, version: undefined },
      { ...entry, remotes: [{ type: "streamable-http", url: "not a url" }] },
    ]
  ) {
    assert.equal(validate(broken), false, JSON.stringify(broken).slice(0, 120));
  }
});

Deno.test("server.json is generated from the catalogue and settings (run `deno task docs` if not)", () => {
  const entry = JSON.parse(Deno.readTextFileSync(SERVER_JSON));
  assert.equal(Deno.readTextFileSync(SERVER_JSON), renderServerJson());
  assert.equal(entry.version, VERSION);
  const meta = entry._meta["io.modelcontextprotocol.registry/publisher-provided"];
  assert.deepEqual(meta.tools, ALL_TOOLS.map((t) => t.name));
  const vars = new Map(meta.environmentVariables.map((v: { name: string }) => [v.name, v]));
  assert.deepEqual([...vars.keys()], ENV_VARS.map((v) => v.name));
  for (const secret of ["MCP_AUTH_SECRET_KEY", "NCBI_API_KEY", "OPENALEX_API_KEY", "DENO_KV_ACCESS_TOKEN"]) {
    assert.equal((vars.get(secret) as { isSecret?: boolean }).isSecret, true, `${secret} is marked secret`);
  }
  assert.equal(entry.packages, undefined, "no package entry: none is published to a registry the index reads");
  assert.equal(entry.remotes[0].headers[0].isSecret, true);
});
