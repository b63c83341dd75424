/**
 * `pubmed-connect://info`: who this server is and how it uses NCBI (key in use, tool id, target rate,
 * policy) and whether NCBI answered lately, under the seed's keys and types exactly (`serverName`,
 * `ncbiCompliance.apiUsageStatus`, `supportedEutilities`, `operationalStatus.ncbiStatus`, …); keys of
 * its own follow the seed's. Served
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
const E_UTILITIES = ["ESearch", "EFetch", "ESummary", "ELink", "EInfo", "ESpell", "ECitMatch"];

export function serverInfo(ctx: ToolContext): Record<string, unknown> {
  const { config } = ctx;
  const interval = upstreamPolicies(config)["ncbi-eutils"].intervalMs;
  const status = ctx.upstream.status()["ncbi-eutils"];
  const perSecond = interval > 0 ? Math.round((1000 / interval) * 100) / 100 : null;
  return {
    serverName: SERVER_NAME,
    serverVersion: VERSION,
    description: "MCP server for scientific sources: PubMed search, article details, related articles and " +
      "citations through NCBI E-utilities, plus NCBI Gene, PubChem, arXiv/OpenAlex papers and local PDFs.",
    // The seed shows the address; the operator's address is for NCBI, so clients learn only whether one is set.
    contactEmail: config.ncbi.email
      ? "configured (NCBI_ADMIN_EMAIL is set; the address is sent to NCBI, not shown here)"
      : "not configured (set NCBI_ADMIN_EMAIL)",
    mcpSpecVersion: LATEST_PROTOCOL_VERSION,
    ncbiCompliance: {
      apiUsageStatus: config.ncbi.apiKey ? "NCBI API Key in use" : "No NCBI API Key (3 requests/s limit)",
      toolIdentifier: config.ncbi.tool,
      ncbiUsagePolicyUrl: NCBI_POLICY_URL,
      currentRateLimitAdherence: perSecond === null
        ? "No spacing between requests (NCBI_REQUEST_DELAY_MS=0)."
        : `Targeting <=${perSecond} requests/sec (${config.ncbi.apiKey ? "with" : "without"} API key) via ` +
          "request queuing.",
    },
    supportedEutilities: E_UTILITIES,
    operationalStatus: {
      lastNcbiConnectivityCheck: lastContact(status),
      ncbiStatus: health(status, ctx.clock.now()),
      internalQueueLength: status?.queueLength ?? 0,
      lastSuccessfulCallAt: status?.lastSuccessAt ?? null,
      lastErrorAt: status?.lastErrorAt ?? null,
      cooldownUntil: status?.cooldownUntil ?? null,
    },
    documentationUrl: E_UTILITIES_DOCS_URL,
    // Beyond the seed: what else this server serves and how it is set up.
    adminEmailConfigured: Boolean(config.ncbi.email),
    apiKeyInUse: Boolean(config.ncbi.apiKey),
    targetRequestsPerSecond: perSecond,
    enabledToolsets: config.toolsets,
    openalex: {
      apiKey: config.openalex.apiKey
        ? "set"
        : "missing: OpenAlex requires an API key since February 2026 (set OPENALEX_API_KEY)",
      mailto: config.openalex.mailto ? "set" : "unset",
    },
    eUtilitiesBaseUrl: config.baseUrls["ncbi-eutils"],
  };
}

/** The later of the last answer and the last failure: when NCBI was last reached (or tried); null before any call. */
function lastContact(status: NcbiStatus): string | null {
  const times = [status?.lastSuccessAt, status?.lastErrorAt].filter((t): t is string => Boolean(t)).sort();
  return times.at(-1) ?? null;
}

type NcbiStatus = ReturnType<ToolContext["upstream"]["status"]>[string] | undefined;

/** The seed's `ncbiStatus` words: "Nominal" when the last call answered. */
function health(status: NcbiStatus, now: number): "Unknown" | "Nominal" | "Degraded" | "Rate limited" {
  if (!status || (!status.lastSuccessAt && !status.lastErrorAt)) return "Unknown";
  if (status.cooldownUntil && Date.parse(status.cooldownUntil) > now) return "Rate limited";
  if (status.lastErrorAt && (!status.lastSuccessAt || status.lastErrorAt > status.lastSuccessAt)) return "Degraded";
  return "Nominal";
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
