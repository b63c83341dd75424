/**
 * The 2026-07-28 leg of the Streamable HTTP endpoint: stateless, one MCP server object per request
 * (any request may land on any isolate), served by the SDK's `createMcpHandler`. The SDK validates the
 * `_meta` envelope and the `MCP-Protocol-Version`/`Mcp-Method`/`Mcp-Name` headers (-32602, -32020,
 * -32021, -32022, all HTTP 400), stamps `resultType`, cache fields and serverInfo, and aborts a call
 * whose response stream the client closed. 2025-era traffic never reaches this leg (see http.ts).
 */
import type { Logger } from "../core/log.ts";
import { ADVERTISED_VERSIONS, type Era } from "../protocol/eras.ts";
import type { Runtime } from "../runtime.ts";
import { type AuthInfo, createMcpHandler, type McpHttpHandler, ProtocolErrorCode } from "../sdk.ts";
import { createMcpServer, type ServerExtension } from "../server.ts";

export interface ModernLeg {
  serve(request: Request, parsedBody: unknown, authInfo: AuthInfo | undefined): Promise<Response>;
  close(): Promise<void>;
}

export function createModernLeg(
  runtime: Runtime,
  options: { extension?: ServerExtension; maxBodyBytes: number; log: Logger },
): ModernLeg {
  const handler: McpHttpHandler = createMcpHandler(
    () =>
      createMcpServer(runtime, { era: "modern" satisfies Era, extension: options.extension, notifier: handler.notify }),
    {
      legacy: "reject",
      maxRequestBodySize: options.maxBodyBytes,
      onerror: (error) => options.log.debug("modern request refused or failed", { error: error.message }),
    },
  );
  return {
    async serve(request, parsedBody, authInfo) {
      const response = await handler.fetch(request, { parsedBody, ...(authInfo ? { authInfo } : {}) });
      return await listLegacyVersion(response);
    },
    close: () => handler.close(),
  };
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
