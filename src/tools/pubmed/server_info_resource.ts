/**
 * `pubmed-connect://info`: who this server is and how it uses NCBI (key in use, tool id, target rate,
 * policy) and whether NCBI answered lately, under the seed's keys (`serverName`, `serverVersion`, …). Served
 * as JSON text, a deliberate departure from the seed's base64 `blob`: clients that show only text resources
 * would show nothing.
 * Every client may read it, so secrets and personal data only appear as "configured: true/false"
 * (the operator's NCBI_ADMIN_EMAIL is for NCBI, not for the server's clients).
 */
import { SERVER_NAME, VERSION } from "../../config.ts";
import type { ResourceDef, ToolContext } from "../tool_def.ts";
import { LATEST_PROTOCOL_VERSION } from "../../sdk.ts";
import { upstreamPolicies } from "../../upstreams/mod.ts";

const URI = "pubmed-connect://info";
/** NCBI's E-utilities usage guidelines (rate limits, tool/email, API keys). */
const NCBI_POLICY_URL = "https://www.ncbi.nlm.nih.gov/books/NBK25497/";
/** NCBI's E-utilities help book: what this server calls and how. */
const E_UTILITIES_DOCS_URL = "https://www.ncbi.nlm.nih.gov/books/NBK25501/";
const E_UTILITIES = ["esearch", "esummary", "efetch", "elink", "einfo"];

export function serverInfo(ctx: ToolContext): Record<string, unknown> {
  const { config } = ctx;
  const interval = upstreamPolicies(config)["ncbi-eutils"].intervalMs;
  const status = ctx.upstream.status()["ncbi-eutils"];
  return {
    serverName: SERVER_NAME,
    serverVersion: VERSION,
    name: SERVER_NAME,
    version: VERSION,
    description: "MCP server for scientific sources: PubMed search, article details, related articles and " +
      "citations through NCBI E-utilities, plus NCBI Gene, PubChem, arXiv/OpenAlex papers and local PDFs.",
    contactEmail: { configured: Boolean(config.ncbi.email) },
    mcpSpecVersion: LATEST_PROTOCOL_VERSION,
    ncbiCompliance: {
      apiKeyInUse: Boolean(config.ncbi.apiKey),
      toolIdentifier: config.ncbi.tool,
      adminEmailConfigured: Boolean(config.ncbi.email),
      policyUrl: NCBI_POLICY_URL,
      targetRequestsPerSecond: interval > 0 ? Math.round((1000 / interval) * 100) / 100 : null,
    },
    enabledToolsets: config.toolsets,
    openalex: {
      apiKey: config.openalex.apiKey
        ? "set"
        : "missing: OpenAlex requires an API key since February 2026 (set OPENALEX_API_KEY)",
      mailto: config.openalex.mailto ? "set" : "unset",
    },
    supportedEUtilities: E_UTILITIES,
    documentationUrl: E_UTILITIES_DOCS_URL,
    eUtilitiesBaseUrl: config.baseUrls["ncbi-eutils"],
    operationalStatus: {
      status: health(status, ctx.clock.now()),
      lastSuccessfulCallAt: status?.lastSuccessAt ?? null,
      lastErrorAt: status?.lastErrorAt ?? null,
      queueLength: status?.queueLength ?? 0,
      cooldownUntil: status?.cooldownUntil ?? null,
    },
  };
}

type NcbiStatus = ReturnType<ToolContext["upstream"]["status"]>[string] | undefined;

function health(status: NcbiStatus, now: number): "unknown" | "operational" | "degraded" | "rate_limited" {
  if (!status || (!status.lastSuccessAt && !status.lastErrorAt)) return "unknown";
  if (status.cooldownUntil && Date.parse(status.cooldownUntil) > now) return "rate_limited";
  if (status.lastErrorAt && (!status.lastSuccessAt || status.lastErrorAt > status.lastSuccessAt)) return "degraded";
  return "operational";
}

export const serverInfoResource: ResourceDef = {
  toolset: "pubmed",
  name: "serverInfo",
  title: "Server information and NCBI compliance",
  description: "Server name, version, MCP spec version, NCBI usage (API key in use, tool id, target rate, " +
    "policy) and NCBI operational status (last successful call, queue length). JSON text.",
  mimeType: "application/json",
  uri: URI,
  read(uri, _params, ctx) {
    const json = JSON.stringify(serverInfo(ctx), null, 2);
    return Promise.resolve([{ uri, mimeType: "application/json", text: json }]);
  },
};
