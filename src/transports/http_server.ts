/**
 * Runs the HTTP handler on Deno.serve at MCP_HTTP_HOST:MCP_HTTP_PORT, with graceful shutdown: on
 * SIGINT/SIGTERM it stops accepting connections, ends standalone streams, gives in-flight calls a grace
 * period, then closes every session and the runtime.
 */
import type { Runtime } from "../runtime.ts";
import { createHttpHandler, type HttpHandler, type HttpHandlerOptions } from "./http.ts";
import { shutdownSignals } from "./shutdown.ts";

/** Options of {@link startHttpServer}. */
export interface HttpServerOptions extends HttpHandlerOptions {
  /** Overrides MCP_HTTP_PORT (0 picks a free port: tests, conformance). */
  port?: number;
  /** Install SIGINT/SIGTERM handlers (the CLI does; embedders and tests usually do not). */
  handleSignals?: boolean;
  /** How long in-flight calls may run on after a shutdown starts. Default MCP_SHUTDOWN_GRACE_MS (10 s). */
  graceMs?: number;
}

/** A listening HTTP server. */
export interface RunningHttpServer {
  /** Base URL, e.g. `http://127.0.0.1:3010`; MCP lives at `${url}/mcp`. */
  readonly url: string;
  /** The handler it serves. */
  readonly handler: HttpHandler;
  /** Resolves when a shutdown has completed (sessions and runtime closed). */
  readonly finished: Promise<void>;
  /** Stops accepting, drains calls for the grace period, then closes sessions and the runtime. */
  shutdown(): Promise<void>;
}

/** Serves the HTTP handler with Deno.serve at MCP_HTTP_HOST:MCP_HTTP_PORT, with graceful shutdown. */
export function startHttpServer(runtime: Runtime, options: HttpServerOptions = {}): RunningHttpServer {
  const { host, port } = runtime.deps.config.http;
  const log = runtime.deps.log.child({ component: "http" });
  const handler = createHttpHandler(runtime, options);
  const server = Deno.serve(
    { hostname: host, port: options.port ?? port, onListen: () => {} },
    (request) => handler.fetch(request),
  );
  const url = `http://${formatHost(server.addr.hostname)}:${server.addr.port}`;
  log.info("listening", { url: `${url}/mcp`, auth: runtime.deps.config.http.authMode });

  let stopped!: () => void;
  const finished = new Promise<void>((resolve) => (stopped = resolve));
  let stopping: Promise<void> | undefined;
  const graceMs = options.graceMs ?? runtime.deps.config.shutdownGraceMs;
  const shutdown = () =>
    stopping ??= (async () => {
      log.info("shutting down", { sessions: handler.sessions, graceMs });
      removeSignals();
      const drained = server.shutdown();
      try {
        handler.drain();
        let timer: ReturnType<typeof setTimeout> | undefined;
        await Promise.race([drained, new Promise((r) => (timer = setTimeout(r, graceMs)))]);
        clearTimeout(timer);
        // Every call still running gets the shutdown error on its stream before any connection closes.
        await handler.close();
        await drained;
        await runtime.close();
        log.info("stopped");
      } finally {
        stopped();
      }
    })();

  const onSignal = () =>
    void shutdown().catch((error) => log.error("shutdown failed", { error: String(error?.stack ?? error) }));
  const signals = options.handleSignals ? shutdownSignals() : [];
  for (const s of signals) Deno.addSignalListener(s, onSignal);
  function removeSignals() {
    for (const s of signals) Deno.removeSignalListener(s, onSignal);
  }

  return { url, handler, finished, shutdown };
}

function formatHost(hostname: string): string {
  return hostname.includes(":") ? `[${hostname}]` : hostname;
}
