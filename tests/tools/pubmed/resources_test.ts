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

function decodeBlob(blob: string): Record<string, unknown> {
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

Deno.test("serverInfo is base64 JSON naming the spec version, NCBI compliance and NCBI's status", async () => {
  // NCBI_REQUEST_DELAY_MS unset: the policy rate applies (10/s with a key).
  const { client, close } = await session({
    NCBI_REQUEST_DELAY_MS: "",
    NCBI_API_KEY: "info-secret-key",
    NCBI_ADMIN_EMAIL: "ops@example.org",
  });
  try {
    const before = await client.readResource({ uri: "pubmed-connect://info" });
    const [content] = before.contents as { uri: string; mimeType: string; blob: string }[];
    assert.equal(content.mimeType, "application/json");
    const info = decodeBlob(content.blob);
    assert.equal(info.name, "science-mcp");
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
    const openalex = info.openalex as { apiKey: string; mailto: string };
    assert.match(openalex.apiKey, /^missing: .*OPENALEX_API_KEY/, "a missing OpenAlex key is reported up front");
    assert.equal(openalex.mailto, "unset");
    assert.equal((info.operationalStatus as { status: string }).status, "unknown");
    assert.doesNotMatch(atob(content.blob), /info-secret-key/);

    await client.callTool({ name: "searchPubMedArticles", arguments: { queryTerm: "biopython" } });
    const [again] = (await client.readResource({ uri: "pubmed-connect://info" })).contents as { blob: string }[];
    const after = decodeBlob(again.blob);
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
        text: string;
        mimeType: string;
      }[];
      assert.equal(content.mimeType, "application/json");
      return JSON.parse(content.text);
    };
    const stats = await read();
    assert.equal(stats.dbName, "pubmed");
    assert.equal(stats.menuName, "PubMed");
    assert.equal(stats.recordCount, 39730388);
    assert.equal(stats.lastUpdate, "2025/11/27 06:33");
    assert.equal(stats.searchFields.length, 50);
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
