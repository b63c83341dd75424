/** 2026-07-28 requests for tests: the `_meta` envelope and the standard headers, each overridable. */
import { BASE } from "../transports/http_helpers.ts";

export const MODERN = "2026-07-28";
export const CLIENT_INFO = { name: "modern-test", version: "1.0.0" };

export interface ModernOptions {
  /** Replaces (or, with `undefined` values, removes) envelope keys. */
  meta?: Record<string, unknown>;
  /** Replaces (or, with `undefined` values, removes) HTTP headers. */
  headers?: Record<string, string | undefined>;
  id?: number;
  signal?: AbortSignal;
  base?: string;
}

/** The JSON-RPC body of a modern request. */
export function modernBody(method: string, params: Record<string, unknown> = {}, options: ModernOptions = {}) {
  const meta: Record<string, unknown> = {
    "io.modelcontextprotocol/protocolVersion": MODERN,
    "io.modelcontextprotocol/clientCapabilities": {},
    "io.modelcontextprotocol/clientInfo": CLIENT_INFO,
    ...options.meta,
  };
  for (const [key, value] of Object.entries(meta)) if (value === undefined) delete meta[key];
  return { jsonrpc: "2.0", id: options.id ?? 1, method, params: { ...params, _meta: meta } };
}

/** A modern POST with the headers a conforming client sends (MCP-Protocol-Version, Mcp-Method, Mcp-Name). */
export function modernRequest(method: string, params: Record<string, unknown> = {}, options: ModernOptions = {}) {
  const name = typeof params.name === "string" ? params.name : typeof params.uri === "string" ? params.uri : undefined;
  const headers: Record<string, string | undefined> = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": MODERN,
    "mcp-method": method,
    ...(name === undefined ? {} : { "mcp-name": name }),
    ...options.headers,
  };
  const clean = Object.fromEntries(Object.entries(headers).filter((e): e is [string, string] => e[1] !== undefined));
  return new Request(`${options.base ?? BASE}/mcp`, {
    method: "POST",
    headers: clean,
    body: JSON.stringify(modernBody(method, params, options)),
    signal: options.signal,
  });
}

/** Every JSON-RPC message of a JSON or SSE response body, in order. */
export async function readAll(response: Response): Promise<Record<string, unknown>[]> {
  const text = await response.text();
  if (!(response.headers.get("content-type") ?? "").includes("text/event-stream")) {
    return text ? [JSON.parse(text)] : [];
  }
  return text.split("\n").filter((l) => l.startsWith("data: ")).map((l) => JSON.parse(l.slice(6)));
}

/** The final JSON-RPC response (result or error) of a response body. */
export async function readFinal(response: Response): Promise<Record<string, unknown>> {
  const messages = await readAll(response);
  const final = messages.find((m) => "result" in m || "error" in m);
  if (!final) throw new Error(`no JSON-RPC response in ${JSON.stringify(messages)}`);
  return final;
}
