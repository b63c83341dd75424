/**
 * createMcpServer: one MCP server (protocol object) over a Runtime. No I/O happens here; transports
 * connect it to stdio or HTTP. Tools and resources come from the catalogue; every call goes through
 * {@link invokeTool}, the same path the CLI takes.
 */
import { VERSION } from "./config.ts";
import { invokeTool } from "./core/invoke.ts";
import { inputJsonSchema, outputJsonSchema } from "./core/json_schema.ts";
import type { LogLevel, LogRecord } from "./core/log.ts";
import type { AnyToolDef, ResourceDef, ResourceEntry, ToolContext } from "./core/tool_def.ts";
import { toErrorEnvelope } from "./core/errors.ts";
import type { Runtime } from "./runtime.ts";
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type ReadResourceResult,
  RpcErrorCode,
  Server,
  type ServerCapabilities,
} from "./sdk.ts";

export const SERVER_NAME = "science-mcp";

export interface ServerOptions {
  /** Session id, added to every log record of this server. */
  sessionId?: string;
  /**
   * Extra tools and a hook to add capabilities/handlers: used by the test-only conformance fixtures,
   * never by production entry points.
   */
  extension?: ServerExtension;
}

export interface ServerExtension {
  tools?: AnyToolDef[];
  resources?: ResourceDef[];
  capabilities?: ServerCapabilities;
  install?(server: Server, runtime: Runtime): void;
}

const INSTRUCTIONS = "Scientific sources: PubMed, NCBI Gene, PubChem, arXiv/OpenAlex papers and local PDFs. " +
  "Errors carry a code and a recovery_hint; follow the hint (e.g. resolve names with a search_* tool first).";

export function createMcpServer(runtime: Runtime, options: ServerOptions = {}): Server {
  const tools = [...runtime.tools, ...(options.extension?.tools ?? [])];
  const resources = [...runtime.resources, ...(options.extension?.resources ?? [])];
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
    },
  );
  const log = runtime.deps.log.child(options.sessionId ? { session: options.sessionId } : {});
  forwardLogs(server, runtime, options.sessionId);

  const byName = new Map(tools.map((t) => [t.name, t]));
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: tools.map((def) => ({
      name: def.name,
      title: def.title,
      description: def.description,
      inputSchema: inputJsonSchema(def) as { type: "object" },
      outputSchema: outputJsonSchema(def) as { type: "object" },
      annotations: { title: def.title, ...def.annotations },
    })),
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const def = byName.get(request.params.name);
    if (!def) {
      throw new McpError(
        RpcErrorCode.InvalidParams,
        `Unknown tool '${request.params.name}'. Call tools/list for the names.`,
      );
    }
    const ctx = toolContext(runtime, {
      signal: extra.signal,
      requestId: String(extra.requestId),
      sessionId: options.sessionId,
      progressToken: request.params._meta?.progressToken,
      notify: (n) => extra.sendNotification(n as Parameters<typeof extra.sendNotification>[0]),
    });
    ctx.log.info("tool call", { tool: def.name, arguments: request.params.arguments });
    return await invokeTool(def, request.params.arguments, ctx) as CallToolResult;
  });

  server.setRequestHandler(ListResourcesRequestSchema, async (_request, extra) => {
    const ctx = toolContext(runtime, {
      signal: extra.signal,
      requestId: String(extra.requestId),
      sessionId: options.sessionId,
    });
    const out: ResourceEntry[] = [];
    for (const r of resources) {
      if (r.uri) {
        out.push({ uri: r.uri, name: r.name, title: r.title, description: r.description, mimeType: r.mimeType });
      }
      if (r.list) out.push(...await r.list(ctx));
    }
    return { resources: out };
  });

  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({
    resourceTemplates: resources.filter((r) => r.uriTemplate).map((r) => ({
      uriTemplate: r.uriTemplate!,
      name: r.name,
      title: r.title,
      description: r.description,
      mimeType: r.mimeType,
    })),
  }));

  server.setRequestHandler(ReadResourceRequestSchema, async (request, extra) => {
    const uri = request.params.uri;
    const ctx = toolContext(runtime, {
      signal: extra.signal,
      requestId: String(extra.requestId),
      sessionId: options.sessionId,
    });
    for (const r of resources) {
      const params = r.uri === uri ? {} : r.uriTemplate ? matchTemplate(r.uriTemplate, uri) : undefined;
      if (!params) continue;
      try {
        return { contents: await r.read(uri, params, ctx) } as ReadResourceResult;
      } catch (error) {
        const envelope = toErrorEnvelope(error);
        log.info("resource read failed", { uri, code: envelope.code });
        const code = envelope.code === "ENTITY_NOT_FOUND"
          ? -32002
          : envelope.code === "INVALID_INPUT"
          ? RpcErrorCode.InvalidParams
          : RpcErrorCode.InternalError;
        throw new McpError(code, `${envelope.message} ${envelope.recovery_hint}`, { uri, error: envelope });
      }
    }
    throw new McpError(-32002, `Resource not found: ${uri}. Call resources/list or resources/templates/list.`, { uri });
  });

  options.extension?.install?.(server, runtime);
  return server;
}

interface CallOrigin {
  signal: AbortSignal;
  requestId: string;
  sessionId?: string;
  progressToken?: string | number;
  notify?: (notification: { method: string; params: Record<string, unknown> }) => Promise<void>;
}

export function toolContext(runtime: Runtime, origin: CallOrigin): ToolContext {
  const { config, clock } = runtime.deps;
  return {
    config,
    clock,
    upstream: runtime.upstream,
    signal: origin.signal,
    log: runtime.deps.log.child({
      request: origin.requestId,
      ...(origin.sessionId ? { session: origin.sessionId } : {}),
    }),
    shared: runtime.shared,
    async progress(progress, total, message) {
      if (origin.progressToken === undefined || !origin.notify) return;
      await origin.notify({
        method: "notifications/progress",
        params: {
          progressToken: origin.progressToken,
          progress,
          ...(total === undefined ? {} : { total }),
          ...(message ? { message } : {}),
        },
      }).catch(() => {});
    },
  };
}

/** Matches `scheme://path/{var}` templates; returns the variables or undefined. */
export function matchTemplate(template: string, uri: string): Record<string, string> | undefined {
  const names: string[] = [];
  const pattern = template.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{(\w+)\}/g, (_m, name: string) => {
    names.push(name);
    return "([^/]+)";
  });
  const match = new RegExp(`^${pattern}$`).exec(uri);
  if (!match) return undefined;
  return Object.fromEntries(names.map((n, i) => [n, decodeURIComponent(match[i + 1])]));
}

/** MCP logging notifications for this server's session, honouring logging/setLevel (done by the SDK). */
function forwardLogs(server: Server, runtime: Runtime, sessionId: string | undefined): void {
  let connected = false;
  server.oninitialized = () => (connected = true);
  const remove = runtime.deps.log.addSink((record: LogRecord) => {
    if (!connected) return;
    if (sessionId && record.session && record.session !== sessionId) return;
    server.sendLoggingMessage({ level: record.level as LogLevel, logger: SERVER_NAME, data: record }, sessionId).catch(
      () => {},
    );
  });
  server.onclose = () => remove();
}
