/**
 * The 2026-07-28 leg of the Streamable HTTP endpoint: stateless, one MCP server object per request
 * (any request may land on any isolate), served by the SDK's `createMcpHandler`. The SDK validates the
 * `_meta` envelope and the `MCP-Protocol-Version`/`Mcp-Method`/`Mcp-Name` headers (-32602, -32020,
 * -32021, -32022, all HTTP 400), stamps `resultType`, cache fields and serverInfo, and aborts a call
 * whose response stream the client closed. 2025-era traffic never reaches this leg (see http.ts).
 */
import type { Logger } from "../core/log.ts";
import { ADVERTISED_VERSIONS } from "../protocol/eras.ts";
import type { Runtime } from "../runtime.ts";
import { type AuthInfo, createMcpHandler, InMemoryServerEventBus, ProtocolErrorCode, type Transport } from "../sdk.ts";
import { createMcpServer, type ServerExtension } from "../server.ts";
import { Inflight } from "./inflight.ts";
import { SESSION_CLOSED } from "./shutdown.ts";

export interface ModernLeg {
  serve(request: Request, parsedBody: unknown, authInfo: AuthInfo | undefined): Promise<Response>;
  /** Answers every request still running with a JSON-RPC error carrying `message`, then closes. */
  close(message: string): Promise<void>;
}

export function createModernLeg(
  runtime: Runtime,
  options: { extension?: ServerExtension; maxBodyBytes: number; log: Logger },
): ModernLeg {
  const bus = new InMemoryServerEventBus();
  /** Requests in progress, each with its own transport: a shutdown answers them before closing it. */
  const running = new Set<Inflight>();
  const factory = () => {
    const server = createMcpServer(runtime, { era: "modern", extension: options.extension, notifier: plain.notify });
    const connect = server.connect.bind(server);
    server.connect = async (transport) => {
      await connect(transport);
      track(transport);
    };
    return server;
  };
  /** Records the requests a transport delivers, until they are answered or the transport closes. */
  function track(transport: Transport) {
    const inflight = new Inflight(transport);
    running.add(inflight);
    const deliver = transport.onmessage;
    transport.onmessage = (message, extra) => {
      inflight.add(message);
      deliver?.(message, extra);
    };
    const send = transport.send.bind(transport);
    transport.send = async (message, options) => {
      await send(message, options);
      if (inflight.size === 0) running.delete(inflight);
    };
    const closed = transport.onclose;
    transport.onclose = () => {
      running.delete(inflight);
      closed?.();
    };
  }
  const common = {
    legacy: "reject" as const,
    bus,
    maxRequestBodySize: options.maxBodyBytes,
    onerror: (error: Error) => options.log.debug("modern request refused or failed", { error: error.message }),
  };
  // Answers as JSON unless the handler streams first, so every error keeps its HTTP status (-32021 → 400).
  const plain = createMcpHandler(factory, common);
  // Catalogue tool calls stream from the start: Deno.serve notices a closed connection only through a
  // streamed body, and the SDK cancels the call when its stream is cancelled. A catalogue tool never
  // asks the client for input, so no error of its call needs a status other than 200.
  const streamed = createMcpHandler(factory, { ...common, responseMode: "sse" });
  const catalogue = new Set([...runtime.catalogue.tools, ...(options.extension?.tools ?? [])].map((t) => t.name));

  return {
    async serve(request, parsedBody, authInfo) {
      const handler = isCatalogueCall(parsedBody, catalogue) ? streamed : plain;
      const response = await handler.fetch(request, { parsedBody, ...(authInfo ? { authInfo } : {}) });
      return await listLegacyVersion(response);
    },
    async close(message) {
      const answering = [...running].map((inflight) => inflight.fail(SESSION_CLOSED, message));
      running.clear();
      await Promise.all(answering);
      await Promise.all([plain.close(), streamed.close()]);
    },
  };
}

function isCatalogueCall(body: unknown, catalogue: Set<string>): boolean {
  const message = body as { method?: unknown; params?: { name?: unknown } } | undefined;
  return message?.method === "tools/call" && typeof message.params?.name === "string" &&
    catalogue.has(message.params.name);
}

/**
 * An unsupported-version answer (-32022) lists every revision we serve, 2025-11-25 included, like
 * `server/discover` does: a client that cannot speak 2026-07-28 learns it may use `initialize`.
 */
async function listLegacyVersion(response: Response): Promise<Response> {
  if (response.status !== 400 || !response.headers.get("content-type")?.includes("application/json")) return response;
  const body = await response.json();
  if (body?.error?.code === ProtocolErrorCode.UnsupportedProtocolVersion && body.error.data) {
    body.error.data.supported = [...ADVERTISED_VERSIONS];
  }
  const headers = new Headers(response.headers);
  headers.delete("content-length");
  return Response.json(body, { status: 400, headers });
}
