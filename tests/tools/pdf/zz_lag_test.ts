import { InMemoryTransport, type JSONRPCMessage } from "../../../src/sdk.ts";
import { createMcpServer } from "../../../src/server.ts";
import { systemClock } from "../../../src/core/clock.ts";
import { testRuntime } from "../../helpers/runtime.ts";
import { FIXTURES_PDF } from "./pdf_client.ts";
Deno.test("lag", async () => {
  const runtime = testRuntime({ clock: systemClock, env: { PDF_ROOT: FIXTURES_PDF } });
  const server = createMcpServer(runtime);
  const [c, s] = InMemoryTransport.createLinkedPair();
  await server.connect(s);
  const waiting = new Map<number, (m: JSONRPCMessage) => void>();
  c.onmessage = (m) => { const id = (m as { id?: number }).id; if (id !== undefined && waiting.has(id)) { waiting.get(id)!(m); waiting.delete(id); } };
  await c.start();
  let next = 1;
  const call = (method: string, params: Record<string, unknown> = {}) => new Promise<JSONRPCMessage>((resolve) => { const id = next++; waiting.set(id, resolve); c.send({ jsonrpc: "2.0", id, method, params }); });
  await call("initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } });
  await c.send({ jsonrpc: "2.0", method: "notifications/initialized" });
  for (let i = 0; i < 5; i++) { const t0 = performance.now(); await call("tools/list"); console.log("raw tools/list", Math.round(performance.now() - t0)); }
  await c.close(); await server.close(); await runtime.close();
});
