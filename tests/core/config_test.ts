import assert from "node:assert/strict";
import { ConfigError, ENV_VARS, loadConfig } from "../../src/config.ts";

Deno.test("configuration: a bad value fails at startup naming the variable", async (t) => {
  const cases: [string, string][] = [
    ["MCP_TRANSPORT_TYPE", "ftp"],
    ["MCP_HTTP_PORT", "eighty"],
    ["MCP_HTTP_PORT", "70000"],
    ["MCP_AUTH_MODE", "basic"],
    ["MCP_SESSION_MODE", "sticky"],
    ["MCP_SESSION_IDLE_TIMEOUT_MS", "10"],
    ["MCP_MAX_SESSIONS", "0"],
    ["MCP_MAX_BODY_BYTES", "1.5"],
    ["MCP_LOG_LEVEL", "verbose"],
    ["SCIENCE_MCP_TOOLSETS", "pubmed,astrology"],
    ["NCBI_ADMIN_EMAIL", "not-an-email"],
    ["NCBI_TOOL_IDENTIFIER", "has spaces"],
    ["NCBI_MAX_RETRIES", "-1"],
    ["NCBI_EUTILS_BASE_URL", "ftp://example.org"],
    ["OPENALEX_BASE_URL", "not a url"],
    ["PDF_MAX_PAGES", "0"],
    ["SCIENCE_MCP_MAX_OUTPUT_CHARS", "100"],
    ["SCIENCE_MCP_MAX_OUTPUT_CHARS", "lots"],
  ];
  for (const [name, value] of cases) {
    await t.step(`${name}=${value}`, () => {
      assert.throws(
        () => loadConfig({ [name]: value }),
        (e: Error) => e instanceof ConfigError && e.message.includes(name),
      );
    });
  }
});

Deno.test("configuration: defaults apply to unset and empty variables", () => {
  const config = loadConfig({ MCP_HTTP_PORT: "" });
  assert.equal(config.http.port, 3010);
  assert.equal(config.transport, "stdio");
  assert.equal(config.http.host, "127.0.0.1");
  assert.equal(config.http.authMode, "jwt");
  assert.deepEqual(config.toolsets, ["pubmed", "gene", "pubchem", "papers", "pdf"]);
  assert.equal(config.outputMaxChars, 24_000);
  assert.equal(loadConfig({ SCIENCE_MCP_MAX_OUTPUT_CHARS: "50000" }).outputMaxChars, 50_000);
  assert.ok(Object.isFrozen(config.http));
  assert.equal(new Set(ENV_VARS.map((v) => v.name)).size, ENV_VARS.length);
});
