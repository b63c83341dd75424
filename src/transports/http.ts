/**
 * The Streamable HTTP transport as a plain fetch handler (`Request → Promise<Response>`), so it runs
 * under Deno.serve, `deno serve`, Deno Deploy and in tests without a socket.
 *
 * Routes: `POST|GET|DELETE /mcp` (MCP), `OPTIONS /mcp` (CORS preflight), `GET /healthz`.
 * Order of checks on /mcp: Host/Origin (403) → JWT (401) → body size (413) → era → session (400/404/503).
 * One endpoint serves both protocol eras: a request carrying the 2026-07-28 `_meta` envelope goes to the
 * stateless modern leg (modern_http.ts); everything else is 2025-era traffic. For that, stateful mode
 * keeps one MCP Server per `initialize`d session over the shared Runtime; stateless mode builds one per
 * request (for `deno serve --parallel` and Deploy, where requests may land on any isolate).
 */
import { VERSION } from "../config.ts";
import { assertLogsDirWritable, openSessionLog } from "../core/session_log.ts";
import type { Runtime } from "../runtime.ts";
import { isInitializeRequest, isLegacyRequest, WebStandardStreamableHTTPServerTransport } from "../sdk.ts";
import { createMcpServer, SERVER_NAME, type ServerExtension } from "../server.ts";
import { assertHttpSecurity, type AuthResult, createAuthenticator } from "./auth.ts";
import { jsonRpcError, readJsonBody, trackBody } from "./http_io.ts";
import { createModernLeg } from "./modern_http.ts";
import { createOriginPolicy } from "./origin.ts";
import { type Session, SessionStore } from "./sessions.ts";

export interface HttpHandlerOptions {
  /** Test-only additions (conformance fixtures); production never passes one. */
  extension?: ServerExtension;
  /** How often idle sessions are reaped; 0 turns the timer off (tests call reap()). Default 60 s. */
  reapIntervalMs?: number;
}

export interface HttpHandler {
  fetch(request: Request): Promise<Response>;
  /** Closes idle sessions now; returns how many. */
  reap(): Promise<number>;
  /** Live sessions (stateful mode). */
  readonly sessions: number;
  /** Ends the sessions' standalone GET streams, so in-flight calls can finish while nothing new starts. */
  drain(): void;
  /** Closes every session and stops the reaper. */
  close(): Promise<void>;
}

type Authenticated = Extract<AuthResult, { ok: true }>;

export function createHttpHandler(runtime: Runtime, options: HttpHandlerOptions = {}): HttpHandler {
  const { config, clock } = runtime.deps;
  const http = config.http;
  assertHttpSecurity(http);
  if (config.logsDir && http.sessionMode === "stateful") assertLogsDirWritable(config.logsDir);
  const authenticate = createAuthenticator(http, clock);
  const origins = createOriginPolicy(http);
  const log = runtime.deps.log.child({ component: "http" });
  const store = new SessionStore({ idleMs: http.sessionIdleMs, max: http.maxSessions, clock, log });
  const reapEvery = options.reapIntervalMs ?? Math.min(60_000, http.sessionIdleMs);
  const timer = reapEvery > 0 ? setInterval(() => void store.reap(), reapEvery) : undefined;
  if (timer !== undefined) Deno.unrefTimer(timer);
  const modern = createModernLeg(runtime, { extension: options.extension, maxBodyBytes: http.maxBodyBytes, log });

  async function handle(request: Request): Promise<Response> {
    const url = new URL(request.url);
    if (url.pathname === "/healthz") return health(request);
    if (url.pathname !== "/mcp") return Response.json({ error: "Not found. MCP is served at /mcp." }, { status: 404 });
    if (request.method === "OPTIONS") return origins.preflight(request);
    if (!["GET", "POST", "DELETE"].includes(request.method)) {
      return jsonRpcError(405, -32000, "Method not allowed.", { allow: "GET, POST, DELETE" });
    }
    const refused = origins.check(request);
    if (refused) return refused;
    const auth = await authenticate(request);
    const cors = origins.corsHeaders(request);
    if (!auth.ok) {
      log.info("request refused", { status: 401, reason: auth.reason });
      return withHeaders(auth.response, cors);
    }
    let parsedBody: unknown;
    if (request.method === "POST") {
      const body = await readJsonBody(request, http.maxBodyBytes);
      if (!body.ok) return withHeaders(body.response, cors);
      parsedBody = body.body;
    }
    const response = !await isLegacyRequest(request, parsedBody)
      ? await modern.serve(request, parsedBody, auth.info)
      : http.sessionMode === "stateless"
      ? await stateless(request, parsedBody, auth)
      : await stateful(request, parsedBody, auth);
    return withHeaders(response, cors);
  }

  async function stateful(request: Request, parsedBody: unknown, auth: Authenticated): Promise<Response> {
    const sessionId = request.headers.get("mcp-session-id");
    if (sessionId) {
      const session = store.get(sessionId);
      if (!session || session.subject !== auth.subject) {
        return jsonRpcError(404, -32001, "Session not found: it expired or was closed. Initialize a new session.");
      }
      return await serve(session, request, parsedBody, auth);
    }
    if (request.method !== "POST") {
      return jsonRpcError(400, -32000, "Bad Request: the Mcp-Session-Id header is required.");
    }
    if (!isInitialize(parsedBody)) {
      return jsonRpcError(400, -32000, "Bad Request: no session. Send initialize first, then use its Mcp-Session-Id.");
    }
    if (!await store.hasRoom()) {
      log.warn("session limit reached", { max: http.maxSessions });
      return jsonRpcError(503, -32000, "Too many sessions (MCP_MAX_SESSIONS); retry later.", { "retry-after": "30" });
    }
    const session = await openSession(auth.subject);
    const response = await serve(session, request, parsedBody, auth);
    if (!store.get(session.id)) await discard(session);
    return response;
  }

  async function serve(session: Session, request: Request, parsedBody: unknown, auth: Authenticated) {
    const end = store.begin(session);
    try {
      const response = await session.transport.handleRequest(request, { parsedBody, authInfo: auth.info });
      return trackBody(response, end);
    } catch (error) {
      end();
      throw error;
    }
  }

  async function openSession(subject: string): Promise<Session> {
    const id = crypto.randomUUID();
    const sessionLog = config.logsDir ? openSessionLog(config.logsDir, clock.now(), { session: id }) : undefined;
    const server = createMcpServer(runtime, { sessionId: id, sessionLog, extension: options.extension });
    const session: Session = {
      id,
      subject,
      server,
      logPath: sessionLog?.path,
      lastSeen: clock.now(),
      open: 0,
      transport: new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: () => id,
        maxRequestBodySize: http.maxBodyBytes,
        onsessioninitialized: () => store.add(session),
      }),
    };
    session.transport.onclose = () => store.forget(id, "closed");
    await server.connect(session.transport);
    return session;
  }

  /** A session whose initialize was refused (bad headers): nothing of it may remain. */
  async function discard(session: Session): Promise<void> {
    await session.server.close().catch(() => {});
    if (session.logPath) await Deno.remove(session.logPath).catch(() => {});
  }

  async function stateless(request: Request, parsedBody: unknown, auth: Authenticated): Promise<Response> {
    if (request.method !== "POST") {
      return jsonRpcError(405, -32000, "Method not allowed: stateless mode serves POST only.", { allow: "POST" });
    }
    const server = createMcpServer(runtime, {
      sessionId: `request-${crypto.randomUUID()}`,
      extension: options.extension,
    });
    const transport = new WebStandardStreamableHTTPServerTransport({ maxRequestBodySize: http.maxBodyBytes });
    await server.connect(transport);
    const response = await transport.handleRequest(request, { parsedBody, authInfo: auth.info });
    return trackBody(response, () => void server.close().catch(() => {}));
  }

  function health(request: Request): Response {
    if (request.method !== "GET" && request.method !== "HEAD") {
      return Response.json({ error: "Method not allowed." }, { status: 405, headers: { allow: "GET, HEAD" } });
    }
    return Response.json({ status: "ok", name: SERVER_NAME, version: VERSION });
  }

  return {
    async fetch(request) {
      const started = clock.now();
      const response = await handle(request);
      log.debug("http request", {
        method: request.method,
        path: new URL(request.url).pathname,
        status: response.status,
        session: request.headers.get("mcp-session-id") ?? undefined,
        ms: clock.now() - started,
      });
      return response;
    },
    reap: () => store.reap(),
    drain: () => store.endStreams(),
    get sessions() {
      return store.size;
    },
    async close() {
      if (timer !== undefined) clearInterval(timer);
      await modern.close();
      await store.closeAll("shutdown");
    },
  };
}

function isInitialize(body: unknown): boolean {
  return Array.isArray(body) ? body.some((m) => isInitializeRequest(m)) : isInitializeRequest(body);
}

/** Adds headers, copying the response when its headers are immutable. */
function withHeaders(response: Response, headers: Record<string, string>): Response {
  const entries = Object.entries(headers);
  if (entries.length === 0) return response;
  const copy = new Response(response.body, response);
  for (const [k, v] of entries) copy.headers.set(k, v);
  return copy;
}
