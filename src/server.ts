/**
 * createMcpServer: one MCP server (protocol object) over a Runtime. No I/O happens here; transports
 * connect it to stdio or HTTP. Tools and resources are listed from the runtime's catalogue (the generated
 * manifest) and a toolset is imported on its first call; every call goes through {@link invokeTool}, the
 * same path the CLI takes.
 */
import { clipValue } from "./core/clip.ts";
import { SERVER_NAME, VERSION } from "./config.ts";
import { UNTRUSTED_NOTE } from "./render/fence.ts";
import { LOG_LEVELS, type LogLevel, type LogRecord } from "./core/log.ts";
import type { SessionLog } from "./core/session_log.ts";
import type { AnyToolDef, ResourceDef, ResourceEntry } from "./tools/tool_def.ts";
import { toErrorEnvelope } from "./core/errors.ts";
import { installPrompts } from "./prompts/register.ts";
import { invokeShared, loadTool, type Runtime, toolContext } from "./runtime.ts";
import { errorResult } from "./core/tool_result.ts";
import { onDemand } from "./core/on_demand.ts";
import type { ResourceInfo } from "./lazy_catalog.ts";
import { advertiseBothEras, CACHE_HINTS, type Era } from "./protocol/eras.ts";
import { forwardRequestLogs } from "./protocol/request_logs.ts";
import { upstreamReady } from "./upstreams/lazy.ts";
import {
  type CallToolResult,
  type HandlerResultTypeMap,
  ProtocolError,
  ProtocolErrorCode,
  type ReadResourceResult,
  Server,
  type ServerCapabilities,
  type ServerContext,
  type ServerNotification,
  type ServerNotifier,
  type Tool,
} from "./sdk.ts";

export { SERVER_NAME };

export type HandlerExtra = ServerContext;

/** How one MCP server object is set up: its session, log file and protocol era. */
export interface ServerOptions {
  /**
   * Session id, added to every log record of this server. Log notifications of a server with a session
   * id carry only that session's records; without one (stdio: one client per process) they carry all.
   */
  sessionId?: string;
  /** Per-session log file (LOGS_DIR): requests, results and errors of this server's session. */
  sessionLog?: SessionLog;
  /**
   * The protocol era this server object serves (default legacy). A legacy server keeps the state of one
   * `initialize`d connection (log level, session logs); a modern one serves 2026-07-28 requests, each
   * with its own `_meta`, and sends log notifications only for a request that names a level.
   */
  era?: Era;
  /**
   * Extra tools and a hook to add capabilities/handlers: used by the test-only conformance fixtures,
   * never by production entry points.
   * @ignore
   */
  extension?: ServerExtension;
  /**
   * Publishes list-changed events to open `subscriptions/listen` streams (2026-07-28 over HTTP).
   * @ignore
   */
  notifier?: ServerNotifier;
}

/**
 * A tool whose result a ToolDef cannot express (image/audio/resource content, sampling or elicitation
 * round trips). Only the conformance fixtures use it; catalogue tools are always ToolDefs.
 */
export interface RawTool {
  tool: Tool;
  call(
    args: Record<string, unknown>,
    extra: HandlerExtra,
    server: Server,
    notifier?: ServerNotifier,
  ): Promise<HandlerResultTypeMap["tools/call"]>;
}

export interface ServerExtension {
  tools?: AnyToolDef[];
  rawTools?: RawTool[];
  resources?: ResourceDef[];
  capabilities?: ServerCapabilities;
  /** Checks a 2026-07-28 multi-round `requestState` before a handler sees it; a throw refuses the request. */
  verifyRequestState?: (state: string, ctx: ServerContext) => unknown;
  install?(server: Server, runtime: Runtime): void;
}

/** What every session is told once: which source for what, how answers are bounded, how to read them. */
export const INSTRUCTIONS = "Scientific sources: PubMed, NCBI Gene, PubChem, arXiv/OpenAlex papers and local PDFs. " +
  "Which source: PubMed for biomedical literature (MeSH, reviews, PMIDs); OpenAlex for any field, citation " +
  "counts and most-cited work; arXiv for preprints in physics, maths, CS and quantitative biology. " +
  "Errors carry a code and a recovery_hint; follow the hint (e.g. resolve names with a search_* tool first). " +
  "Answers are cut to a character budget; a cut or a further page ends with one line saying how to get the rest. " +
  UNTRUSTED_NOTE;

/**
 * One MCP server object over a runtime, with every enabled tool, resource and prompt registered; connect
 * it to an SDK transport (`server.connect(transport)`). The transports of this package do that for you.
 */
export function createMcpServer(runtime: Runtime, options: ServerOptions = {}): Server {
  const { catalogue } = runtime;
  const extraTools = options.extension?.tools ?? [];
  const rawTools = new Map((options.extension?.rawTools ?? []).map((t) => [t.tool.name, t]));
  const resources: { info: ResourceInfo; def: () => Promise<ResourceDef> }[] = [
    ...catalogue.resources.map((info) => ({ info, def: () => catalogue.resource(info) })),
    ...(options.extension?.resources ?? []).map((def) => ({
      info: { ...def, listed: def.list !== undefined },
      def: () => Promise.resolve(def),
    })),
  ];
  const server = new Server(
    { name: SERVER_NAME, title: "Science MCP", version: VERSION },
    {
      capabilities: {
        tools: { listChanged: false },
        resources: { listChanged: false },
        logging: {},
        ...options.extension?.capabilities,
      },
      instructions: INSTRUCTIONS,
      cacheHints: CACHE_HINTS,
      ...(options.extension?.verifyRequestState
        ? { requestState: { verify: options.extension.verifyRequestState } }
        : {}),
    },
  );
  const { sessionId, sessionLog } = options;
  const modern = options.era === "modern";
  const log = runtime.deps.log.child(sessionId ? { session: sessionId } : {});
  const inFlight = new Map<string, Notify>();
  if (modern) {
    advertiseBothEras(server);
    if (sessionLog) keepSessionWarnings(server, runtime, sessionLog);
  } else {
    forwardLogs(server, runtime, options, inFlight);
  }

  const extraByName = new Map(extraTools.map((t) => [t.name, t]));
  server.setRequestHandler("tools/list", async () => ({
    tools: [
      ...catalogue.tools.map((t): Tool => ({
        name: t.name,
        title: t.title,
        description: t.description,
        inputSchema: t.inputSchema,
        outputSchema: t.outputSchema,
        annotations: t.annotations,
      })),
      ...await extensionTools(extraTools),
      ...[...rawTools.values()].map((t) => t.tool),
    ],
  }));

  server.setRequestHandler("tools/call", async (request, extra) => {
    const { name, arguments: args } = request.params;
    const requestId = String(extra.mcpReq.id);
    sessionLog?.log.info("request", { request: requestId, tool: name, arguments: clipValue(args) });
    const raw = rawTools.get(name);
    if (raw) return await raw.call(args ?? {}, extra, server, options.notifier);
    const loaded = extraByName.has(name) ? { def: extraByName.get(name) } : await loadTool(runtime, name);
    if ("error" in loaded) {
      sessionLog?.log.info("error", { request: requestId, tool: name, error: loaded.error });
      return errorResult(loaded.error) as CallToolResult;
    }
    const def = loaded.def;
    if (!def) {
      sessionLog?.log.info("error", { request: requestId, tool: name, error: "unknown tool" });
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Unknown tool '${name}'. Call tools/list for the names.`,
      );
    }
    const ctx = toolContext(runtime, {
      signal: extra.mcpReq.signal,
      requestId,
      sessionId,
      progressToken: request.params._meta?.progressToken,
      notify: (n) => extra.mcpReq.notify(n as ServerNotification),
    });
    ctx.log.info("tool call", { tool: def.name, arguments: clipValue(args) });
    const stopLogs = modern ? forwardRequestLogs(runtime.deps.log, requestId, extra) : undefined;
    inFlight.set(requestId, extra.mcpReq.notify);
    const untrack = runtime.calls.track({ tool: def.name, request: requestId, session: sessionId, signal: ctx.signal });
    try {
      const result = await invokeShared(runtime, def, args, ctx);
      if (result.isError) {
        sessionLog?.log.info("error", { request: requestId, tool: name, error: result.structuredContent.error });
      } else sessionLog?.result({ request: requestId, tool: name }, result.structuredContent);
      return result as CallToolResult;
    } finally {
      inFlight.delete(requestId);
      untrack();
      stopLogs?.();
    }
  });

  server.setRequestHandler("resources/list", async (_request, extra) => {
    await upstreamReady(runtime.upstream);
    const ctx = toolContext(runtime, { signal: extra.mcpReq.signal, requestId: String(extra.mcpReq.id), sessionId });
    const out: ResourceEntry[] = [];
    for (const { info: r, def } of resources) {
      if (r.uri) {
        out.push({ uri: r.uri, name: r.name, title: r.title, description: r.description, mimeType: r.mimeType });
      }
      if (r.listed) out.push(...await (await def()).list!(ctx));
    }
    return { resources: out };
  });

  server.setRequestHandler("resources/templates/list", () => ({
    resourceTemplates: resources.map((r) => r.info).filter((r) => r.uriTemplate).map((r) => ({
      uriTemplate: r.uriTemplate!,
      name: r.name,
      title: r.title,
      description: r.description,
      mimeType: r.mimeType,
    })),
  }));

  server.setRequestHandler("resources/read", async (request, extra) => {
    const uri = request.params.uri;
    const requestId = String(extra.mcpReq.id);
    sessionLog?.log.info("request", { request: requestId, resource: uri });
    await upstreamReady(runtime.upstream);
    const ctx = toolContext(runtime, { signal: extra.mcpReq.signal, requestId, sessionId });
    for (const { info: r, def } of resources) {
      const params = r.uri === uri ? {} : r.uriTemplate ? matchTemplate(r.uriTemplate, uri) : undefined;
      if (!params) continue;
      try {
        const contents = await (await def()).read(uri, params, ctx);
        sessionLog?.log.info("result", { request: requestId, resource: uri, contents: contents.length });
        return { contents } as ReadResourceResult;
      } catch (error) {
        const envelope = toErrorEnvelope(error, runtime.upstream.recoveryHint);
        log.info("resource read failed", { uri, code: envelope.code });
        sessionLog?.log.info("error", { request: requestId, resource: uri, error: envelope });
        throw new ProtocolError(readErrorCode(envelope.code), `${envelope.message} ${envelope.recovery_hint}`, {
          uri: clip(uri),
          error: envelope,
        });
      }
    }
    throw new ProtocolError(
      readErrorCode("ENTITY_NOT_FOUND"),
      `Resource not found: ${clip(uri)}. Call resources/list or resources/templates/list.`,
      { uri: clip(uri) },
    );
  });

  installPrompts(server, runtime);
  options.extension?.install?.(server, runtime);
  return server;
}

type Notify = ServerContext["mcpReq"]["notify"];
type JsonSchemas = typeof import("./core/json_schema.ts");

/**
 * The extension's ToolDefs as tools/list shows them, their schemas converted from zod here (the catalogue's
 * come converted in the manifest, so a server without extension tools never loads the converter).
 */
async function extensionTools(defs: readonly AnyToolDef[]): Promise<Tool[]> {
  if (defs.length === 0) return [];
  const { listedInputSchema, outputJsonSchema } = await onDemand<JsonSchemas>("core/json_schema.ts");
  return defs.map((def) => ({
    name: def.name,
    title: def.title,
    description: def.description,
    inputSchema: listedInputSchema(def) as Tool["inputSchema"],
    outputSchema: outputJsonSchema(def) as Tool["outputSchema"],
    annotations: def.annotations,
  }));
}

/**
 * The JSON-RPC code of a failed resources/read. A missing resource is -32602 (invalid params, with the
 * `uri` in `data`): 2026-07-28 retired -32002, and SDK 2 sends -32602 to clients of either era.
 */
function readErrorCode(code: string): number {
  return code === "ENTITY_NOT_FOUND" || code === "INVALID_INPUT"
    ? ProtocolErrorCode.InvalidParams
    : ProtocolErrorCode.InternalError;
}

/** Matches `scheme://path/{var}` templates; returns the variables or undefined. */
function matchTemplate(template: string, uri: string): Record<string, string> | undefined {
  const names: string[] = [];
  const pattern = template.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{(\w+)\}/g, (_m, name: string) => {
    names.push(name);
    return "([^/]+)";
  });
  const match = new RegExp(`^${pattern}$`).exec(uri);
  if (!match) return undefined;
  return Object.fromEntries(names.map((n, i) => [n, decodeParam(match[i + 1], uri)]));
}

/** A malformed `%` escape is the client's mistake (-32602), not an internal error. */
function decodeParam(value: string, uri: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `Malformed percent-encoding in ${clip(uri)}: each % must start an escape of valid UTF-8 such as %20 ` +
        "(write a literal % as %25).",
      { uri: clip(uri) },
    );
  }
}

/** URIs come from clients: errors quote at most 200 characters of one. */
function clip(uri: string): string {
  return uri.length > 200 ? `${uri.slice(0, 200)}…` : uri;
}

/**
 * Forwards log records as MCP `notifications/message`, from initialization until the server closes.
 * - Scope: a server with a session id gets only records of its session (never another client's);
 *   without one (stdio) it gets every record of the process.
 * - Level: none until the client sends `logging/setLevel`, handled here per server (one server per
 *   session): a client that never asked gets no log traffic, so a chat's context is not filled with it.
 *   The runtime logger hands every level to its sinks (see runtime.ts); stderr keeps to MCP_LOG_LEVEL.
 * - Routing: a record of an in-flight tools/call is sent as related to that request, so over Streamable
 *   HTTP it travels on the call's own response stream; other records go to the standalone stream.
 * - Session file: the session's warnings and errors are also written to its log file.
 */
function forwardLogs(
  server: Server,
  runtime: Runtime,
  options: ServerOptions,
  inFlight: Map<string, Notify>,
): void {
  const { sessionId, sessionLog } = options;
  let initialized = false;
  let minimum: LogLevel | undefined;
  server.setRequestHandler("logging/setLevel", (request) => {
    minimum = request.params.level;
    return {};
  });
  server.oninitialized = () => (initialized = true);
  const remove = runtime.deps.log.addSink((record: LogRecord) => {
    if (sessionId !== undefined && record.session !== sessionId) return;
    if (sessionLog && severity(record.level) >= severity("warning")) sessionLog.write(record);
    if (!initialized || minimum === undefined || severity(record.level) < severity(minimum)) return;
    const notification = {
      method: "notifications/message" as const,
      params: { level: record.level, logger: SERVER_NAME, data: record },
    };
    const related = typeof record.request === "string" ? inFlight.get(record.request) : undefined;
    (related ? related(notification) : server.notification(notification)).catch(() => {});
  });
  server.onclose = () => {
    remove();
    sessionLog?.close();
  };
}

/** A modern (stdio) connection sends no unrequested log notifications, but its log file keeps the warnings. */
function keepSessionWarnings(server: Server, runtime: Runtime, sessionLog: SessionLog): void {
  const remove = runtime.deps.log.addSink((record: LogRecord) => {
    if (severity(record.level) >= severity("warning")) sessionLog.write(record);
  });
  server.onclose = remove;
}

function severity(level: LogLevel): number {
  return LOG_LEVELS.indexOf(level);
}
