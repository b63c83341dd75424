/** Raw Streamable HTTP requests for handler tests: no socket, just `handler.fetch(new Request(...))`. */
import type { ServerExtension } from "../../src/server.ts";
import type { HttpHandler } from "../../src/transports/http.ts";

export const SECRET = "test-secret-that-is-at-least-32-bytes-long!";
export const BASE = "http://127.0.0.1:3010";

export const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
};

export interface RawOptions {
  token?: string;
  session?: string;
  headers?: Record<string, string>;
  method?: string;
  path?: string;
}

export function rawRequest(body: unknown, options: RawOptions = {}): Request {
  const method = options.method ?? "POST";
  const headers: Record<string, string> = {
    accept: "application/json, text/event-stream",
    ...(method === "POST" ? { "content-type": "application/json" } : {}),
    ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
    ...(options.session ? { "mcp-session-id": options.session, "mcp-protocol-version": "2025-06-18" } : {}),
    ...options.headers,
  };
  return new Request(`${BASE}${options.path ?? "/mcp"}`, {
    method,
    headers,
    body: method === "POST" ? (typeof body === "string" ? body : JSON.stringify(body)) : undefined,
  });
}

/** Reads a JSON-RPC message from a JSON or SSE response (the first `data:` event that parses). */
export async function readMessage(response: Response): Promise<Record<string, unknown>> {
  const type = response.headers.get("content-type") ?? "";
  if (!type.includes("text/event-stream")) return await response.json();
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`SSE stream ended without a message: ${buffer}`);
      buffer += value;
      for (const line of buffer.split("\n")) {
        if (!line.startsWith("data: ")) continue;
        const message = JSON.parse(line.slice(6));
        if ("id" in message) return message;
      }
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}

/** Initializes a session and sends `notifications/initialized`; returns the session id. */
export async function openSession(handler: HttpHandler, token?: string): Promise<string> {
  const response = await handler.fetch(rawRequest(INITIALIZE, { token }));
  if (response.status !== 200) throw new Error(`initialize failed: ${response.status} ${await response.text()}`);
  const session = response.headers.get("mcp-session-id")!;
  await readMessage(response);
  const ack = await handler.fetch(
    rawRequest({ jsonrpc: "2.0", method: "notifications/initialized" }, { token, session }),
  );
  await ack.body?.cancel();
  return session;
}

/**
 * A tool that runs until released (or aborted): a call "in progress" for as long as a test needs,
 * without any timing. `started` resolves when the server has entered it.
 */
export function blockingTool(name = "test_block") {
  const started = Promise.withResolvers<void>();
  const release = Promise.withResolvers<void>();
  const extension: ServerExtension = {
    rawTools: [{
      tool: { name, description: "blocks until the test releases it", inputSchema: { type: "object" } },
      async call(_args, extra) {
        started.resolve();
        await new Promise<void>((resolve, reject) => {
          release.promise.then(resolve);
          extra.mcpReq.signal.addEventListener("abort", () => reject(extra.mcpReq.signal.reason), { once: true });
        });
        return { content: [{ type: "text", text: "released" }] };
      },
    }],
  };
  return { extension, started: started.promise, release: () => release.resolve() };
}

export function callTool(id: number, name: string, args: Record<string, unknown> = {}) {
  return { jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } };
}
