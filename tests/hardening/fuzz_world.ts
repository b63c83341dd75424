/**
 * A runtime for fuzzing: the real catalogue, server and pipeline behind a real SDK Client, with every
 * upstream answered in-process by the mock upstream's recorded routes (scripts/mock_routes) through a
 * scripted fetch — no socket, no network. Unknown requests get a 404. Time is simulated (SimClock): arXiv's
 * 3 s spacing and retry back-offs cost nothing, and no timeout fires because the machine is slow.
 */
import { type Env, loadConfig } from "../../src/config.ts";
import { createLogger, type LogRecord } from "../../src/core/log.ts";
import { createRuntime, type Runtime } from "../../src/runtime.ts";
import { PAPERS_DEPS, type PapersDeps } from "../../src/tools/papers/deps.ts";
import type { Client } from "../../src/sdk_client.ts";
import { ALL_ROUTES } from "../../scripts/mock_routes/mod.ts";
import type { MockPrefix } from "../../scripts/mock_routes/types.ts";
import { SimClock } from "../../scripts/mock_upstream/sim_clock.ts";
import { connectClient, type RecordedRequest, scriptedFetch } from "../helpers/runtime.ts";

/** Never contacted: the scripted fetch answers first. Loopback anyway, should anything slip through. */
const BASE = "http://127.0.0.1:9";

export const FUZZ_ENV: Env = {
  NCBI_EUTILS_BASE_URL: `${BASE}/ncbi`,
  PUBCHEM_BASE_URL: `${BASE}/pubchem`,
  ARXIV_API_BASE_URL: `${BASE}/arxiv-api`,
  ARXIV_WEB_BASE_URL: `${BASE}/arxiv-web`,
  AR5IV_BASE_URL: `${BASE}/ar5iv`,
  OPENALEX_BASE_URL: `${BASE}/openalex`,
  NCBI_IDCONV_BASE_URL: `${BASE}/idconv`,
  PDF_ROOT: new URL("../../files", import.meta.url).pathname,
  UPSTREAM_TIMEOUT_MS: "600000",
  // Simulated time jumps while real work (PDF extraction) runs: no call deadline here.
  TOOL_CALL_TIMEOUT_MS: "0",
  NCBI_MAX_RETRIES: "1",
};

/** Answers a request from the recorded mock routes, as the mock upstream would, or 404. */
export async function answerFromMock(request: RecordedRequest): Promise<Response> {
  const [, prefix = "", ...rest] = request.url.pathname.split("/");
  const params = new URLSearchParams(request.url.search);
  if ((request.headers.get("content-type") ?? "").includes("application/x-www-form-urlencoded")) {
    for (const [k, v] of new URLSearchParams(request.body)) params.append(k, v);
  }
  const mock = { method: request.method, path: `/${rest.join("/")}`, params, url: request.url, body: request.body };
  for (const route of ALL_ROUTES.filter((r) => r.prefix === (prefix as MockPrefix))) {
    const response = await route.handle(mock);
    if (response) return response;
  }
  return new Response("not found", { status: 404, headers: { "content-type": "text/plain" } });
}

export interface FuzzWorld {
  client: Client;
  runtime: Runtime;
  requests: RecordedRequest[];
  /** Error-level log records (an INTERNAL failure logs its stack). */
  errors: LogRecord[];
  close(): Promise<void>;
}

export async function openFuzzWorld(env: Env = {}): Promise<FuzzWorld> {
  const clock = new SimClock();
  const fetch = scriptedFetch((request) => clock.hold(answerFromMock(request)));
  const errors: LogRecord[] = [];
  const runtime = createRuntime({
    config: loadConfig({ ...FUZZ_ENV, ...env }),
    fetch,
    clock,
    log: createLogger({ level: "error", sinks: [(r) => void errors.push(r)] }),
  });
  // Publisher links of the mock point at 127.0.0.1: the papers toolset's test seam lets them through
  // its SSRF guard, and names resolve without DNS.
  runtime.shared<PapersDeps>(PAPERS_DEPS, () => ({
    allowLoopbackPublisher: true,
    resolveDns: () => Promise.resolve(["127.0.0.1"]),
  }));
  const { client, close } = await connectClient(runtime);
  return { client: onClock(client, clock), runtime, requests: fetch.requests, errors, close };
}

/** The client with every tools/call run on the world's clock, so its waits (pacing, back-off) pass. */
function onClock(client: Client, clock: SimClock): Client {
  return new Proxy(client, {
    get(target, key) {
      if (key === "callTool") {
        return (...args: Parameters<Client["callTool"]>) => clock.run(target.callTool(...args));
      }
      const value = Reflect.get(target, key, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
