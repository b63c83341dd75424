/**
 * The stdio transport: one MCP connection per process. Its first message picks the era: `initialize`
 * pins a 2025-11-25 session, a request carrying the 2026-07-28 `_meta` envelope (usually
 * `server/discover`) pins the stateless modern era (the SDK's `serveStdio` makes that choice). stdout
 * carries JSON-RPC and nothing else, so any console output of a dependency (pdf.js warnings) is
 * redirected to stderr before the server starts.
 * The server stops when stdin ends, on SIGINT/SIGTERM, or when the client closes the connection; a bad
 * or oversized message is answered and logged, never a reason to stop (stdio_lines.ts). On a signal,
 * calls in flight get a grace period, and those still running after it get a JSON-RPC error.
 */
import { openSessionLog } from "../core/session_log.ts";
import type { Runtime } from "../runtime.ts";
import { serveStdio } from "../sdk.ts";
import { createMcpServer, type ServerExtension } from "../server.ts";
import { SESSION_CLOSED, shutdownSignals } from "./shutdown.ts";
import { StdioLinesTransport } from "./stdio_lines.ts";

/** Sends every console method that writes to stdout to stderr instead. */
export function protectStdout(): void {
  const toStderr = console.error.bind(console);
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
  console.dir = toStderr;
  console.table = toStderr;
}

/** Serves MCP on stdin/stdout until the session ends; then disposes the runtime. */
/** Options of {@link runStdio}. */
export interface StdioOptions {
  /**
   * Test-only additions (conformance fixtures).
   * @ignore
   */
  extension?: ServerExtension;
  /** Default: the process's stdin, read directly (tests pass their own streams). */
  input?: ReadableStream<Uint8Array>;
  /** Default: the process's stdout (its web stream made only for an answer larger than a pipe's buffer). */
  output?: WritableStream<Uint8Array>;
  /** Largest message (line) accepted; default MAX_STDIO_MESSAGE_BYTES (10 MiB). */
  maxMessageBytes?: number;
  /** How long calls in flight may run on after a shutdown starts. Default MCP_SHUTDOWN_GRACE_MS (10 s). */
  graceMs?: number;
  /** Shuts down gracefully when aborted, as SIGTERM does (tests; embedders). */
  stop?: AbortSignal;
}

const SHUTDOWN_MESSAGE = "The server is shutting down and this request did not finish in time; " +
  "send it again once the server is back.";

/** Serves MCP over stdin/stdout until the client closes it, then closes the runtime. */
export async function runStdio(runtime: Runtime, options: StdioOptions = {}): Promise<void> {
  protectStdout();
  const { config, clock } = runtime.deps;
  const log = runtime.deps.log.child({ component: "stdio" });
  const sessionLog = config.logsDir
    ? openSessionLog(config.logsDir, clock.now(), {}, {
      onError: (error) => log.warn("session log off: its folder cannot be written", { error: String(error) }),
    })
    : undefined;
  const transport = new StdioLinesTransport({
    input: options.input ?? Deno.stdin,
    output: options.output ?? (() => Deno.stdout.writable),
    ...(options.output ? {} : { writeSync: (bytes: Uint8Array) => Deno.stdout.writeSync(bytes) }),
    log,
    maxMessageBytes: options.maxMessageBytes,
  });
  const connection = serveStdio(
    ({ era }) => createMcpServer(runtime, { era, sessionLog, extension: options.extension }),
    { transport, onerror: (error) => log.debug("stdio protocol error", { error: error.message }) },
  );
  const entryOnClose = transport.onclose;
  const closed = new Promise<void>((resolve) =>
    transport.onclose = () => {
      entryOnClose?.();
      resolve();
    }
  );
  log.info("stdio server ready", { tools: runtime.catalogue.tools.length, toolsets: config.toolsets });

  let stopping: Promise<void> | undefined;
  const stop = () =>
    void (stopping ??= (async () => {
      log.info("shutting down", { calls: transport.pending });
      let timer: ReturnType<typeof setTimeout> | undefined;
      const grace = new Promise((resolve) => (timer = setTimeout(resolve, options.graceMs ?? config.shutdownGraceMs)));
      await transport.shutdown(grace, SESSION_CLOSED, SHUTDOWN_MESSAGE).catch(() => {});
      clearTimeout(timer);
      await connection.close().catch(() => {});
    })());
  const signals = shutdownSignals();
  for (const s of signals) Deno.addSignalListener(s, stop);
  options.stop?.addEventListener("abort", stop, { once: true });
  try {
    await closed;
  } finally {
    for (const s of signals) Deno.removeSignalListener(s, stop);
    options.stop?.removeEventListener("abort", stop);
    sessionLog?.close();
    await runtime.close();
    log.info("stdio server stopped");
  }
}
