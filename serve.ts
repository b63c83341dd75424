/**
 * Entry point for `deno serve` and Deno Deploy: `export default { fetch }` over the same Streamable HTTP
 * handler as `deno task serve`. MCP 2026-07-28 requests are served without sessions, so any isolate can
 * answer them; set MCP_SESSION_MODE=stateless so 2025 (`initialize`) clients are served per request too
 * when requests may reach different isolates (`deno serve --parallel`, Deploy). `deno serve` picks the
 * bind address itself (0.0.0.0 by default), so this entry point always requires JWT authentication.
 *
 * ```sh
 * MCP_SESSION_MODE=stateless MCP_AUTH_SECRET_KEY=… deno serve -P=http --port 3010 serve.ts
 * ```
 * @module
 */
import { ConfigError } from "./src/config.ts";
import { exitOnOperatorError } from "./src/cli/main.ts";
import { serveEntryRuntime } from "./src/cli/serve.ts";
import { createHttpHandler } from "./src/transports/http.ts";
// The upstream pipeline built with the runtime, at start (a bad SCIENCE_MCP_KV stops the start here too).
import "./src/upstreams/mod.ts";

const runtime = exitOnOperatorError(() => {
  const runtime = serveEntryRuntime();
  if (runtime.deps.config.http.authMode !== "jwt") {
    throw new ConfigError(
      "MCP_AUTH_MODE=none is not allowed under deno serve, which may bind every interface. " +
        "Set MCP_AUTH_SECRET_KEY (JWT), or run `deno task serve` bound to 127.0.0.1.",
    );
  }
  return runtime;
});
const handler = createHttpHandler(runtime, { reapIntervalMs: 60_000 });

export default {
  fetch: (request: Request): Promise<Response> => handler.fetch(request),
} satisfies Deno.ServeDefaultExport;
