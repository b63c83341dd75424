import assert from "node:assert/strict";
import { ManualClock } from "../../../src/core/clock.ts";
import { LATEST_PROTOCOL_VERSION } from "../../../src/sdk.ts";
import { EINFO_TTL_MS } from "../../../src/sources/ncbi/pubmed/client.ts";
import { connectClient, scriptedFetch, testRuntime } from "../../helpers/runtime.ts";
import { callsTo, eutils, fixtureXml } from "./eutils_routes.ts";

const routes = eutils({
  einfo: () => fixtureXml("ncbi/eutils/biopython__einfo2_pubmed.xml"),
  esearch: () => fixtureXml("ncbi/eutils/biopython__esearch1.xml"),
});

async function session(env: Record<string, string> = {}) {
  const fetch = scriptedFetch(routes);
  const clock = new ManualClock(1_700_000_000_000);
  const runtime = testRuntime({
    fetch,
    clock,
    env: { SCIENCE_MCP_TOOLSETS: "pubmed", NCBI_MAX_RETRIES: "0", ...env },
  });
  const { client, close } = await connectClient(runtime);
  return { client, close, fetch, clock };
}

// deno-lint-ignore no-explicit-any
function decodeBlob(blob: string): Record<string, any> {
  return JSON.parse(new TextDecoder().decode(Uint8Array.from(atob(blob), (c) => c.charCodeAt(0))));
}

Deno.test("resources/list shows the serverInfo and PubMed stats resources", async () => {
  const { client, close } = await session();
  try {
    const { resources } = await client.listResources();
    const uris = resources.map((r) => r.uri);
    assert.ok(uris.includes("pubmed-connect://info"));
    assert.ok(uris.includes("pubmed-connect://stats/pubmed"));
    assert.ok(resources.every((r) => r.mimeType === "application/json"));
  } finally {
    await close();
  }
});

Deno.test("serverInfo is JSON text under the seed's keys, naming the spec version, NCBI compliance and status", async () => {
  // NCBI_REQUEST_DELAY_MS unset: the policy rate applies (10/s with a key).
  const { client, close } = await session({
    NCBI_REQUEST_DELAY_MS: "",
    NCBI_API_KEY: "info-secret-key",
    NCBI_ADMIN_EMAIL: "ops@example.org",
  });
  try {
    const before = await client.readResource({ uri: "pubmed-connect://info" });
    const [content] = before.contents as { uri: string; mimeType: string; text: string; blob?: string }[];
    assert.equal(content.mimeType, "application/json");
    assert.equal(content.blob, undefined, "text, so clients that show only text resources show it");
    const info = JSON.parse(content.text);
    assert.equal(info.serverName, "science-mcp");
    assert.equal(info.serverVersion, info.version);
    assert.equal(info.mcpSpecVersion, LATEST_PROTOCOL_VERSION);
    assert.deepEqual(info.contactEmail, { configured: true }, "NCBI_ADMIN_EMAIL is not shown to clients");
    assert.ok(!JSON.stringify(info).includes("ops@example.org"));
    assert.deepEqual(info.ncbiCompliance, {
      apiKeyInUse: true,
      toolIdentifier: "science-mcp/0.1.0",
      adminEmailConfigured: true,
      policyUrl: "https://www.ncbi.nlm.nih.gov/books/NBK25497/",
      targetRequestsPerSecond: 10,
    });
    assert.deepEqual(info.supportedEUtilities, ["esearch", "esummary", "efetch", "elink", "einfo"]);
    assert.equal(info.documentationUrl, "https://www.ncbi.nlm.nih.gov/books/NBK25501/");
    const openalex = info.openalex as { apiKey: string; mailto: string };
    assert.match(openalex.apiKey, /^missing: .*OPENALEX_API_KEY/, "a missing OpenAlex key is reported up front");
    assert.equal(openalex.mailto, "unset");
    assert.equal((info.operationalStatus as { status: string }).status, "unknown");
    assert.doesNotMatch(content.text, /info-secret-key/);

    await client.callTool({ name: "searchPubMedArticles", arguments: { queryTerm: "biopython" } });
    const [again] = (await client.readResource({ uri: "pubmed-connect://info" })).contents as { text: string }[];
    const after = JSON.parse(again.text);
    const status = after.operationalStatus as { status: string; lastSuccessfulCallAt: string; queueLength: number };
    assert.equal(status.status, "operational");
    assert.equal(status.lastSuccessfulCallAt, new Date(1_700_000_000_000).toISOString());
    assert.equal(status.queueLength, 0);
  } finally {
    await close();
  }
});

Deno.test("the PubMed stats resource parses EInfo and is cached for 12 hours", async () => {
  const { client, close, fetch, clock } = await session();
  try {
    const read = async () => {
      const [content] = (await client.readResource({ uri: "pubmed-connect://stats/pubmed" })).contents as {
        blob: string;
        text?: string;
        mimeType: string;
      }[];
      assert.equal(content.mimeType, "application/json");
      assert.equal(content.text, undefined, "the seed's base64 blob");
      return decodeBlob(content.blob);
    };
    const stats = await read();
    assert.equal(stats.dbName, "pubmed");
    assert.equal(stats.menuName, "PubMed");
    assert.equal(stats.recordCount, 39730388);
    assert.equal(stats.lastUpdate, "2025-11-27T06:33:00", "ISO 8601");
    assert.equal(stats.lastUpdateNcbi, "2025/11/27 06:33", "as NCBI wrote it");
    assert.equal(stats.documentationUrl, "https://www.ncbi.nlm.nih.gov/books/NBK25499/#chapter4.EInfo");
    assert.equal(stats.searchFields.length, 50);
    assert.ok(
      stats.searchFields.every((f: { termCount: unknown }) => f.termCount === null),
      "NCBI leaves it empty now",
    );
    assert.equal(stats.linkNames.length, 57);
    assert.match(stats.eInfoUrl, /einfo\.fcgi\?db=pubmed/);
    await read();
    assert.equal(callsTo(fetch.requests, "einfo").length, 1, "served from the cache");
    await clock.advance(EINFO_TTL_MS);
    await read();
    assert.equal(callsTo(fetch.requests, "einfo").length, 2, "refreshed after 12 hours");
  } finally {
    await close();
  }
});

Deno.test("the PubMed stats resource reports an EInfo error instead of empty statistics", async () => {
  const fetch = scriptedFetch(eutils({ einfo: () => fixtureXml("ncbi/eutils/eutilsjson__einfo.error.xml") }));
  const { client, close } = await connectClient(testRuntime({ fetch, env: { SCIENCE_MCP_TOOLSETS: "pubmed" } }));
  try {
    await assert.rejects(
      client.readResource({ uri: "pubmed-connect://stats/pubmed" }),
      /Can not retrieve DbInfo for db=fleegle/,
    );
  } finally {
    await close();
  }
});
