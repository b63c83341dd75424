/**
 * The Streamable HTTP transport as a plain fetch handler (`Request → Promise<Response>`), so it runs
 * under Deno.serve, `deno serve`, Deno Deploy and in tests without a socket.
 *
 * Routes: `POST|GET|DELETE /mcp` (MCP), `OPTIONS /mcp` (CORS preflight), `GET /healthz`, and in oauth mode
 * `GET /.well-known/oauth-protected-resource[/mcp]` (RFC 9728 metadata).
 * Order of checks on /mcp: Host/Origin (403) → JWT (401) → body size and nesting (413/400) → era →
 * session (400/404/503; quotas in session_quota.ts, reaping in sessions.ts).
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
import { BODY_DEADLINE_MS, jsonRpcError, readJsonBody, trackBody } from "./http_io.ts";
import { Inflight } from "./inflight.ts";
import { createModernLeg } from "./modern_http.ts";
import { createOriginPolicy } from "./origin.ts";
import { serveProtectedResourceMetadata } from "./protected_resource.ts";
import { quotaRefusal } from "./session_quota.ts";
import { type Admission, type Session, SessionStore } from "./sessions.ts";
import { SESSION_CLOSED } from "./shutdown.ts";

/** Options of {@link createHttpHandler}. */
export interface HttpHandlerOptions {
  /**
   * Test-only additions (conformance fixtures); production never passes one.
   * @ignore
   */
  extension?: ServerExtension;
  /** How often idle sessions are reaped; 0 turns the timer off (tests call reap()). Default 60 s. */
  reapIntervalMs?: number;
  /** How long a request body may take to arrive in full. Default BODY_DEADLINE_MS (10 s). */
  bodyDeadlineMs?: number;
}

/** The Streamable HTTP transport as a fetch handler, plus its session housekeeping. */
export interface HttpHandler {
  /** Answers one HTTP request (`/mcp`, `/healthz`, OAuth metadata). */
  fetch(request: Request): Promise<Response>;
  /** Closes idle sessions and sessions whose token expired, now; returns how many. */
  reap(): Promise<number>;
  /** Live sessions (stateful mode). */
  readonly sessions: number;
  /** Ends the sessions' standalone GET streams, so in-flight calls can finish while nothing new starts. */
  drain(): void;
  /**
   * Closes every session and stops the reaper. Calls still running get a JSON-RPC error saying the
   * server is shutting down (after the grace period of a graceful shutdown).
   */
  close(): Promise<void>;
}

type Authenticated = Extract<AuthResult, { ok: true }>;

const SHUTDOWN_MESSAGE = "The server is shutting down and this request did not finish in time; " +
  "send it again once the server is back (initialize a new session).";
/** The 2026-07-28 leg has no sessions: the same call can simply be sent again. */
const MODERN_SHUTDOWN_MESSAGE = "The server is shutting down and this request did not finish in time; " +
  "send it again once the server is back.";

/**
 * The Streamable HTTP handler over a runtime: mount it in any fetch-style server. Refuses unsafe settings
 * (no secret, `none` off loopback) with a ConfigError.
 */
export function createHttpHandler(runtime: Runtime, options: HttpHandlerOptions = {}): HttpHandler {
  const { config, clock } = runtime.deps;
  const http = config.http;
  assertHttpSecurity(http);
  if (config.logsDir && http.sessionMode === "stateful") assertLogsDirWritable(config.logsDir);
  const authenticate = createAuthenticator(http, clock);
  const origins = createOriginPolicy(http);
  const log = runtime.deps.log.child({ component: "http" });
  const store = new SessionStore({
    idleMs: http.sessionIdleMs,
    limits: {
      maxSessions: http.maxSessions,
      maxPerSubject: http.authMode === "none" ? undefined : http.maxSessionsPerSubject,
    },
    clock,
    log,
  });
  /** Stateless requests in progress, so a shutdown can answer them too. */
  const stateless = new Set<{ server: Session["server"]; inflight: Inflight }>();
  const reapEvery = options.reapIntervalMs ?? Math.min(60_000, http.sessionIdleMs);
  const timer = reapEvery > 0
    ? setInterval(
      () => void store.reap().catch((error) => log.error("reaping sessions failed", { error: String(error) })),
      reapEvery,
    )
    : undefined;
  if (timer !== undefined) Deno.unrefTimer(timer);
  const modern = createModernLeg(runtime, { extension: options.extension, maxBodyBytes: http.maxBodyBytes, log });

  async function handle(request: Request): Promise<Response> {
    const url = new URL(request.url);
    if (url.pathname === "/healthz") return health(request);
    const metadata = serveProtectedResourceMetadata(http, request);
    if (metadata) return metadata;
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
      const deadline = { ms: options.bodyDeadlineMs ?? BODY_DEADLINE_MS, clock };
      const body = await readJsonBody(request, http.maxBodyBytes, deadline);
      if (!body.ok) {
        if (body.response.status === 408) log.info("request refused", { status: 408, reason: "body too slow" });
        return withHeaders(body.response, cors);
      }
      parsedBody = body.body;
    }
    const response = !await isLegacyRequest(request, parsedBody)
      ? await modern.serve(request, parsedBody, auth.info)
      : http.sessionMode === "stateless"
      ? await serveStateless(request, parsedBody, auth)
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
      store.touch(session, auth.expiresAt);
      if (request.method !== "POST") return await session.transport.handleRequest(request, { authInfo: auth.info });
      return await serve(session, request, parsedBody, auth);
    }
    if (request.method !== "POST") {
      return jsonRpcError(400, -32000, "Bad Request: the Mcp-Session-Id header is required.");
    }
    if (!isInitialize(parsedBody)) {
      return jsonRpcError(400, -32000, "Bad Request: no session. Send initialize first, then use its Mcp-Session-Id.");
    }
    const verdict = await store.admit(auth.subject);
    if (!verdict.ok) {
      log.warn("session limit reached", { limit: verdict.limit, max: verdict.max, subject: auth.subject });
      return quotaRefusal(verdict);
    }
    let session: Session | undefined;
    try {
      session = await openSession(auth, verdict.admission);
      return await serve(session, request, parsedBody, auth);
    } finally {
      if (!session || !store.get(session.id)) {
        verdict.admission.release();
        if (session) await discard(session);
      }
    }
  }

  /** A POST of a session: its requests are in flight until answered or until their stream ends. */
  async function serve(session: Session, request: Request, parsedBody: unknown, auth: Authenticated) {
    const ids = session.inflight.add(parsedBody);
    const endCall = store.beginCall(session);
    const end = () => {
      session.inflight.settle(ids);
      endCall();
    };
    try {
      const response = await session.transport.handleRequest(request, { parsedBody, authInfo: auth.info });
      return trackBody(response, end);
    } catch (error) {
      end();
      throw error;
    }
  }

  async function openSession(auth: Authenticated, admission: Admission): Promise<Session> {
    const id = crypto.randomUUID();
    const sessionLog = config.logsDir
      ? openSessionLog(config.logsDir, clock.now(), { session: id }, {
        onError: (error) => log.warn("session log off: its folder cannot be written", { error: String(error) }),
      })
      : undefined;
    const server = createMcpServer(runtime, { sessionId: id, sessionLog, extension: options.extension });
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => id,
      maxRequestBodySize: http.maxBodyBytes,
      onsessioninitialized: () => store.add(session, admission),
    });
    const session: Session = {
      id,
      subject: auth.subject,
      server,
      transport,
      inflight: new Inflight(transport),
      log: sessionLog,
      lastSeen: clock.now(),
      calls: 0,
      expiresAt: auth.expiresAt,
    };
    session.transport.onclose = () => store.forget(id, "closed");
    await server.connect(session.transport);
    return session;
  }

  /** A session whose initialize was refused (bad headers): nothing of it may remain. */
  async function discard(session: Session): Promise<void> {
    await session.server.close().catch(() => {});
    session.log?.close();
    if (session.log?.path) await Deno.remove(session.log.path).catch(() => {});
  }

  async function serveStateless(request: Request, parsedBody: unknown, auth: Authenticated): Promise<Response> {
    if (request.method !== "POST") {
      return jsonRpcError(405, -32000, "Method not allowed: stateless mode serves POST only.", { allow: "POST" });
    }
    const server = createMcpServer(runtime, {
      sessionId: `request-${crypto.randomUUID()}`,
      extension: options.extension,
    });
    const transport = new WebStandardStreamableHTTPServerTransport({ maxRequestBodySize: http.maxBodyBytes });
    const entry = { server, inflight: new Inflight(transport) };
    entry.inflight.add(parsedBody);
    stateless.add(entry);
    const end = () => {
      stateless.delete(entry);
      void server.close().catch(() => {});
    };
    try {
      await server.connect(transport);
      const response = await transport.handleRequest(request, { parsedBody, authInfo: auth.info });
      return trackBody(response, end);
    } catch (error) {
      end();
      throw error;
    }
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
      const requests = [...stateless].map(async ({ server, inflight }) => {
        await inflight.fail(SESSION_CLOSED, SHUTDOWN_MESSAGE);
        await server.close().catch(() => {});
      });
      stateless.clear();
      await Promise.all([
        store.closeAll("shutdown", SHUTDOWN_MESSAGE),
        ...requests,
        modern.close(MODERN_SHUTDOWN_MESSAGE),
      ]);
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
