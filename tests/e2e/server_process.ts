/** Server processes for end-to-end tests: `deno task serve`'s permission set on a free port, auth off (loopback). */
import { INITIALIZE, readMessage } from "../transports/http_helpers.ts";
import { childEnv, freePort, permissionNet, ROOT, waitForHealth } from "./helpers.ts";

/** Collects a child's stderr (JSON log lines) as it comes: a web stream or the SDK's Node stream. */
export function collect(stream: AsyncIterable<Uint8Array | string> | null | undefined) {
  let text = "";
  const decoder = new TextDecoder();
  const done = (async () => {
    for await (const chunk of stream ?? []) text += typeof chunk === "string" ? chunk : decoder.decode(chunk);
  })().catch(() => {});
  return { text: () => text, done };
}

/** An HTTP server process pointed at an upstream on `upstreamPort` (its base URLs in `env`). */
export async function startHttpProcess(upstreamPort: number, env: Record<string, string>) {
  const port = freePort();
  const net = (await permissionNet("http")).filter((h) => !h.endsWith(":3010"));
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-P=http",
      `--allow-net=${[...net, `127.0.0.1:${port}`, `127.0.0.1:${upstreamPort}`].join(",")}`,
      "main.ts",
      "serve",
      "--transport",
      "http",
    ],
    cwd: ROOT,
    env: childEnv({ MCP_HTTP_PORT: String(port), MCP_AUTH_MODE: "none", ...env }),
    clearEnv: true,
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const stderr = collect(child.stderr);
  const base = `http://127.0.0.1:${port}`;
  await waitForHealth(base, 120_000);
  return { child, base, stderr };
}

/** A 2025 session over raw HTTP: `post` sends one message with the session's headers. */
export async function rawSession(base: string) {
  const headers = { "content-type": "application/json", accept: "application/json, text/event-stream" };
  const init = await fetch(`${base}/mcp`, { method: "POST", headers, body: JSON.stringify(INITIALIZE) });
  const session = init.headers.get("mcp-session-id")!;
  await readMessage(init);
  const post = (message: unknown, signal?: AbortSignal) =>
    fetch(`${base}/mcp`, {
      method: "POST",
      headers: { ...headers, "mcp-session-id": session, "mcp-protocol-version": "2025-06-18" },
      body: JSON.stringify(message),
      signal,
    });
  (await post({ jsonrpc: "2.0", method: "notifications/initialized" })).body?.cancel();
  return post;
}
