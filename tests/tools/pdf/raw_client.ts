/**
 * A bare JSON-RPC client over an in-memory transport: it times the server alone. The SDK Client also
 * compiles every tool's output schema on each tools/list (100 ms and more on a busy machine), which
 * would be measured as the server's latency.
 */
import type { Runtime } from "../../../src/runtime.ts";
import { type JSONRPCMessage } from "../../../src/sdk.ts";
import { InMemoryTransport } from "../../../src/sdk_client.ts";
import { createMcpServer } from "../../../src/server.ts";

interface Response {
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
}

export interface RawClient {
  request(method: string, params?: Record<string, unknown>): Promise<Response>;
  /** Notifications received so far (e.g. notifications/progress). */
  notifications: { method: string; params?: Record<string, unknown> }[];
  close(): Promise<void>;
}

export async function rawClient(runtime: Runtime): Promise<RawClient> {
  const server = createMcpServer(runtime);
  const [client, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const waiting = new Map<number, (response: Response) => void>();
  const notifications: RawClient["notifications"] = [];
  client.onmessage = (message: JSONRPCMessage) => {
    const m = message as { id?: number; method?: string; params?: Record<string, unknown> } & Response;
    if (m.id !== undefined && waiting.has(m.id)) {
      waiting.get(m.id)!(m);
      waiting.delete(m.id);
    } else if (m.method) notifications.push({ method: m.method, params: m.params });
  };
  await client.start();
  let nextId = 1;
  const request = (method: string, params: Record<string, unknown> = {}) =>
    new Promise<Response>((resolve) => {
      const id = nextId++;
      waiting.set(id, resolve);
      void client.send({ jsonrpc: "2.0", id, method, params });
    });
  await request("initialize", {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "raw-test-client", version: "1.0.0" },
  });
  await client.send({ jsonrpc: "2.0", method: "notifications/initialized" });
  return {
    request,
    notifications,
    async close() {
      await client.close();
      await server.close();
      await runtime.close();
    },
  };
}
