/**
 * The stdio server as a subprocess, exactly as `deno task start` runs it (`-P=stdio main.ts serve
 * --transport stdio`), driven with raw newline-delimited JSON-RPC so the measurement carries no client
 * library overhead: spawn → initialize → tools/list timed as a cold start, then timed tools/call.
 */

import { passThrough } from "./server_process.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const encoder = new TextEncoder();

export interface StdioServer {
  /** Spawn to the first tools/list answer, in ms. */
  coldStartMs: number;
  call(name: string, args: unknown): Promise<{ ms: number; ok: boolean; structured?: Record<string, unknown> }>;
  /** Everything the server wrote on stderr so far (its JSON log lines). */
  stderr(): string;
  close(): Promise<void>;
}

export async function startStdioServer(
  env: Record<string, string> = {},
  extraPermissions: string[] = [],
  /** How long a request may wait for its answer (tests on a loaded machine give more). */
  { answerMs = 60_000 }: { answerMs?: number } = {},
): Promise<StdioServer> {
  const started = performance.now();
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-P=stdio", ...extraPermissions, "main.ts", "serve", "--transport", "stdio"],
    cwd: ROOT,
    clearEnv: true,
    env: { ...passThrough("PATH", "HOME", "DENO_DIR"), NO_COLOR: "1", MCP_LOG_LEVEL: "error", ...env },
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let stderr = "";
  const draining = child.stderr.pipeTo(
    new WritableStream({ write: (c) => void (stderr = (stderr + new TextDecoder().decode(c)).slice(-20_000)) }),
  ).catch(() => {});
  const writer = child.stdin.getWriter();
  const waiting = new Map<number, (message: Record<string, unknown>) => void>();
  const reading = readLines(child.stdout, (line) => {
    const message = JSON.parse(line);
    if (typeof message.id === "number") waiting.get(message.id)?.(message);
  });
  const exited = child.status.then((status) => {
    throw new Error(`the server exited (code ${status.code})`);
  });
  exited.catch(() => {});
  let nextId = 1;
  const request = async (method: string, params: unknown) => {
    const id = nextId++;
    const answer = new Promise<Record<string, unknown>>((resolve) => waiting.set(id, resolve));
    await writer.write(encoder.encode(JSON.stringify({ jsonrpc: "2.0", id, method, params }) + "\n"));
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${method}: no answer in ${answerMs / 1000} s`)), answerMs);
    });
    try {
      return await Promise.race([answer, timeout, exited]);
    } finally {
      clearTimeout(timer);
      waiting.delete(id);
    }
  };
  try {
    await request("initialize", {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "startup-bench", version: "1" },
    });
    await writer.write(encoder.encode(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) + "\n"));
    const list = await request("tools/list", {});
    if (!(list.result as { tools?: unknown[] })?.tools?.length) throw new Error(`tools/list: ${JSON.stringify(list)}`);
  } catch (error) {
    try {
      child.kill("SIGKILL");
    } catch { /* it already exited */ }
    await child.status;
    await draining;
    throw new Error(`${error}\n${stderr}`);
  }
  const coldStartMs = performance.now() - started;
  return {
    coldStartMs,
    async call(name, args) {
      const t0 = performance.now();
      const answer = await request("tools/call", { name, arguments: args });
      const result = answer.result as { isError?: boolean; structuredContent?: Record<string, unknown> } | undefined;
      return {
        ms: performance.now() - t0,
        ok: Boolean(result) && !result?.isError,
        structured: result?.structuredContent,
      };
    },
    stderr: () => stderr,
    async close() {
      await writer.close().catch(() => {});
      const timer = setTimeout(() => {
        try {
          child.kill("SIGKILL");
        } catch { /* it already exited */ }
      }, 10_000);
      await child.status;
      clearTimeout(timer);
      await reading;
      await draining;
    },
  };
}

async function readLines(stream: ReadableStream<Uint8Array>, onLine: (line: string) => void): Promise<void> {
  const decoder = new TextDecoder();
  let buffered = "";
  for await (const chunk of stream) {
    buffered += decoder.decode(chunk, { stream: true });
    let newline;
    while ((newline = buffered.indexOf("\n")) >= 0) {
      const line = buffered.slice(0, newline).trim();
      buffered = buffered.slice(newline + 1);
      if (line) onLine(line);
    }
  }
}
