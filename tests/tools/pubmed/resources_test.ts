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

/** Every key of the seed's example document (000, §4.1/4.2) with the JavaScript type of its value. */
function assertSeedShape(doc: Record<string, unknown>, shape: Record<string, string>, where: string): void {
  for (const [key, type] of Object.entries(shape)) {
    const value = doc[key];
    const actual = Array.isArray(value) ? "array" : value === null ? "null" : typeof value;
    assert.equal(actual, type, `${where}.${key} is a ${type} as in the seed`);
  }
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
    assertSeedShape(info, {
      serverName: "string",
      serverVersion: "string",
      description: "string",
      contactEmail: "string",
      mcpSpecVersion: "string",
      ncbiCompliance: "object",
      supportedEutilities: "array",
      operationalStatus: "object",
      documentationUrl: "string",
    }, "info");
    assertSeedShape(info.ncbiCompliance, {
      apiUsageStatus: "string",
      toolIdentifier: "string",
      ncbiUsagePolicyUrl: "string",
      currentRateLimitAdherence: "string",
    }, "info.ncbiCompliance");
    assert.equal(info.serverName, "science-mcp");
    assert.equal(info.mcpSpecVersion, LATEST_PROTOCOL_VERSION);
    assert.match(info.contactEmail, /^configured/, "NCBI_ADMIN_EMAIL is not shown to clients");
    assert.ok(!JSON.stringify(info).includes("ops@example.org"));
    assert.equal(info.ncbiCompliance.apiUsageStatus, "NCBI API Key in use");
    assert.equal(info.ncbiCompliance.toolIdentifier, "science-mcp/0.1.0");
    assert.equal(info.ncbiCompliance.ncbiUsagePolicyUrl, "https://www.ncbi.nlm.nih.gov/books/NBK25497/");
    assert.match(info.ncbiCompliance.currentRateLimitAdherence, /<=10 requests\/sec \(with API key\)/);
    assert.deepEqual(info.supportedEutilities.slice(0, 5), ["ESearch", "EFetch", "ESummary", "ELink", "EInfo"]);
    assert.equal(info.documentationUrl, "https://www.ncbi.nlm.nih.gov/books/NBK25501/");
    const openalex = info.openalex as { apiKey: string; mailto: string };
    assert.match(openalex.apiKey, /^missing: .*OPENALEX_API_KEY/, "a missing OpenAlex key is reported up front");
    assert.equal(openalex.mailto, "unset");
    assert.deepEqual(
      {
        ncbiStatus: info.operationalStatus.ncbiStatus,
        lastNcbiConnectivityCheck: info.operationalStatus.lastNcbiConnectivityCheck,
        internalQueueLength: info.operationalStatus.internalQueueLength,
      },
      { ncbiStatus: "Unknown", lastNcbiConnectivityCheck: null, internalQueueLength: 0 },
    );
    assert.doesNotMatch(content.text, /info-secret-key/);

    await client.callTool({ name: "searchPubMedArticles", arguments: { queryTerm: "biopython" } });
    const [again] = (await client.readResource({ uri: "pubmed-connect://info" })).contents as { text: string }[];
    const after = JSON.parse(again.text);
    assertSeedShape(after.operationalStatus, {
      lastNcbiConnectivityCheck: "string",
      ncbiStatus: "string",
      internalQueueLength: "number",
    }, "info.operationalStatus");
    assert.equal(after.operationalStatus.ncbiStatus, "Nominal");
    assert.equal(after.operationalStatus.lastNcbiConnectivityCheck, new Date(1_700_000_000_000).toISOString());
  } finally {
    await close();
  }
});

Deno.test("the PubMed stats resource parses EInfo and is cached for 12 hours", async () => {
  const { client, close, fetch, clock } = await session();
  try {
    const read = async () => {
      const [content] = (await client.readResource({ uri: "pubmed-connect://stats/pubmed" })).contents as {
        blob?: string;
        text: string;
        mimeType: string;
      }[];
      assert.equal(content.mimeType, "application/json");
      assert.equal(content.blob, undefined, "JSON text, not a base64 blob");
      return JSON.parse(content.text);
    };
    const stats = await read();
    assertSeedShape(stats, {
      databaseName: "string",
      menuName: "string",
      description: "string",
      totalRecordCount: "number",
      lastUpdate: "string",
      availableSearchFields: "array",
      availableLinkNames: "array",
      eInfoUrl: "string",
    }, "stats");
    assert.equal(stats.databaseName, "PubMed");
    assert.equal(stats.totalRecordCount, 39730388);
    assert.equal(stats.lastUpdate, "2025-11-27T06:33:00", "ISO 8601");
    assert.equal(stats.lastUpdateNcbi, "2025/11/27 06:33", "as NCBI wrote it");
    assert.equal(stats.documentationUrl, "https://www.ncbi.nlm.nih.gov/books/NBK25499/#chapter4.EInfo");
    assert.equal(stats.availableSearchFields.length, 50);
    for (const field of stats.availableSearchFields) {
      assertSeedShape(field, {
        name: "string",
        fullName: "string",
        description: "string",
        isDate: "boolean",
        isNumerical: "boolean",
        termCount: "string",
      }, "stats.availableSearchFields[]");
    }
    assert.deepEqual(stats.availableSearchFields.find((f: { name: string }) => f.name === "ALL"), {
      name: "ALL",
      fullName: "All Fields",
      description: "All terms from all searchable fields",
      isDate: false,
      isNumerical: false,
      termCount: "",
      isHidden: false,
    }, "NCBI leaves termCount empty now: its text, empty");
    assert.equal(stats.availableLinkNames.length, 57);
    for (const link of stats.availableLinkNames) {
      assertSeedShape(link, { name: "string", description: "string", dbTo: "string" }, "stats.availableLinkNames[]");
    }
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
