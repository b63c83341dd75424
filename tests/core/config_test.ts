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
    // Once accepted without a word: a bind address with a scheme or port, Origins that no browser sends.
    ["MCP_HTTP_HOST", "http://127.0.0.1"],
    ["MCP_HTTP_HOST", "127.0.0.1:3010"],
    ["MCP_ALLOWED_ORIGINS", "mcp.example.org"],
    ["MCP_ALLOWED_ORIGINS", "https://mcp.example.org/mcp"],
    ["MCP_ALLOWED_ORIGINS", "https://a.example.org,*"],
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

Deno.test("configuration: the odd values once accepted silently now stop the start naming the setting", () => {
  // MCP_MAX_SESSIONS_PER_SUBJECT above half of MCP_MAX_SESSIONS was cut to half without a word.
  assert.throws(
    () => loadConfig({ MCP_MAX_SESSIONS: "10", MCP_MAX_SESSIONS_PER_SUBJECT: "8" }),
    /^ConfigError: Invalid environment variable MCP_MAX_SESSIONS_PER_SUBJECT="8": at most half of MCP_MAX_SESSIONS \(10\), i\.e\. 5$/,
  );
  assert.equal(loadConfig({ MCP_MAX_SESSIONS: "10", MCP_MAX_SESSIONS_PER_SUBJECT: "5" }).http.maxSessionsPerSubject, 5);
  // The default (50) under a small MCP_MAX_SESSIONS is capped as documented, not refused.
  assert.equal(loadConfig({ MCP_MAX_SESSIONS: "10" }).http.maxSessions, 10);
  for (const host of ["::1", "[::1]", "0.0.0.0", "localhost", "mcp.internal"]) {
    assert.equal(loadConfig({ MCP_HTTP_HOST: host }).http.host, host);
  }
  const origins = "https://mcp.example.org, http://127.0.0.1:8080,https://x.example.org/";
  assert.equal(loadConfig({ MCP_ALLOWED_ORIGINS: origins }).http.allowedOrigins.length, 3);
});
