/**
 * `serve`: runs the MCP server on the transport chosen by `--transport` or MCP_TRANSPORT_TYPE, after the
 * preflight (src/preflight.ts) has checked that the permissions cover every setting. `--mock URL` points
 * every base URL the environment leaves unset at a mock upstream (`deno task start:mock`).
 */
import { type Config, type Env, loadConfig, mockBaseUrls, readEnv, VERSION } from "../config.ts";
import { checkEnvPermission, type Launch, listenError, preflight, startupSummary } from "../preflight.ts";
import { onDemand } from "../core/on_demand.ts";
import { guardRejections } from "../core/rejection_guard.ts";
import { createRuntime, type Runtime } from "../runtime.ts";
import { startableDeno } from "../sources/pdf/startable_deno.ts";
import { runStdio } from "../transports/stdio.ts";
import { UsageError } from "./usage_error.ts";

type IndexAhead = typeof import("../sources/pdf/index_ahead.ts");
type HttpServer = typeof import("../transports/http_server.ts");

interface ServeOptions {
  transport?: "stdio" | "http";
  port?: number;
  mock?: string;
}

export async function runServe(args: readonly string[]): Promise<number> {
  const options = parseServeArgs(args);
  checkEnvPermission(serveLaunch(options.transport ?? "stdio"));
  const read = withMock(readEnv(), options.mock);
  // `--transport` wins over MCP_TRANSPORT_TYPE for everything that follows from it (the LOGS_DIR default).
  const env = options.transport ? { ...read, MCP_TRANSPORT_TYPE: options.transport } : read;
  const config = loadConfig(env);
  // The shared rate budget opens its KV store when the pipeline is built: build it now, so that a bad
  // SCIENCE_MCP_KV stops the start (otherwise the pipeline is imported on the first upstream request).
  if (config.kvLocation) await onDemand("upstreams/mod.ts");
  const transport = config.transport;
  const launch = serveLaunch(transport, config, env, options);
  const runtime = startRuntime(config, env, launch, transport);
  if (config.toolsets.includes("pdf") && config.cacheDir) {
    // Index-ahead needs the disk cache; without it (the default) the PDF library is not even imported.
    const { startIndexAhead } = await onDemand<IndexAhead>("sources/pdf/index_ahead.ts");
    startIndexAhead({ ...runtime.deps, shared: runtime.shared });
  }
  if (transport === "stdio") {
    await runStdio(runtime);
    return 0;
  }
  const { startHttpServer } = await onDemand<HttpServer>("transports/http_server.ts");
  try {
    const server = startHttpServer(runtime, { port: options.port, handleSignals: true });
    await server.finished;
    return 0;
  } catch (error) {
    await runtime.close();
    throw listenError(error, launch.listen!);
  }
}

/**
 * The runtime of `deno serve serve.ts` (Deploy): same preflight under the `http` set; `deno serve` binds
 * the address itself, so there is no listen address to check.
 */
export function serveEntryRuntime(): Runtime {
  // `deno serve` keeps its own flags (--host, --port, --parallel) from the script: name only what to add.
  const launch: Launch = {
    set: "http",
    command: "deno serve -q -P=http{flags} {entry}",
    flagsOnly: true,
    toolsets: [],
  };
  checkEnvPermission(launch);
  // An HTTP server, whatever MCP_TRANSPORT_TYPE says: no session logs unless LOGS_DIR is set.
  const env = { ...readEnv(), MCP_TRANSPORT_TYPE: "http" };
  const config = loadConfig(env);
  return startRuntime(config, env, { ...launch, toolsets: config.toolsets }, "deno serve");
}

/**
 * Preflight, then the runtime with the unhandled-rejection guard, then one start-up line naming the
 * folders and moved base URLs.
 */
function startRuntime(config: Config, env: Env, launch: Launch, transport: string): Runtime {
  const notes = preflight(config, env, launch);
  const runtime = createRuntime({ config });
  const log = runtime.deps.log.child({ component: "serve" });
  // A forgotten promise must cost one call at most, never the process and every session with it.
  guardRejections(log, runtime.calls);
  log.info(`science-mcp ${VERSION} starting`, { transport, ...startupSummary(config) });
  for (const note of notes) log.warn(note);
  // Two permission queries, without the extractor's modules (and without a timer, whose first use costs a
  // cold start ~1 ms): said at once where PDFs would be read in this process's worker threads.
  if (config.toolsets.includes("pdf") && startableDeno() === undefined) log.warn(WORKER_THREAD_NOTE);
  return runtime;
}

/**
 * Said at start where PDFs cannot be read in separate processes (a compiled binary, a JSR install, the
 * deploy set or any set without `run`): what that gives up, and how to get it back.
 */
const WORKER_THREAD_NOTE = "PDF extraction runs in worker threads of this process (it may not start a Deno process " +
  "here): a hostile PDF shares the server's memory and CPU until PDF_TIMEOUT_MS, without the separate, " +
  "memory-capped extractor process of `deno run -P=stdio` from a clone.";

/**
 * How `serve` was started, for the preflight's "start it with" command: the tasks' `-q` and every serve
 * option given (`--port`, `--mock`), so the printed command starts the same server.
 */
function serveLaunch(transport: "stdio" | "http", config?: Config, env: Env = {}, options: ServeOptions = {}): Launch {
  const toolsets = config?.toolsets ?? [];
  const port = options.port;
  const rest = `${port !== undefined ? ` --port ${port}` : ""}${options.mock ? ` --mock ${options.mock}` : ""}`;
  if (transport === "stdio") {
    return {
      set: "stdio",
      command: `deno run -q -P=stdio{flags} {entry} serve --transport stdio${rest}`,
      mockTask: "deno task start:mock",
      toolsets,
    };
  }
  const http = config?.http ?? { host: "127.0.0.1", port: 3010 };
  const setting = port !== undefined
    ? "--port"
    : env.MCP_HTTP_HOST && !env.MCP_HTTP_PORT
    ? "MCP_HTTP_HOST"
    : "MCP_HTTP_PORT";
  return {
    set: "http",
    command: `deno run -q -P=http{flags} {entry} serve --transport http${rest}`,
    listen: { host: http.host, port: port ?? http.port, setting },
    toolsets,
  };
}

/** `--mock URL`: the mock's base URLs, under any the environment sets itself. */
function withMock(env: Env, mock: string | undefined): Env {
  if (mock === undefined) return env;
  const out: Record<string, string | undefined> = { ...env };
  for (const [name, url] of Object.entries(mockBaseUrls(mock))) out[name] ||= url;
  return out;
}

function parseServeArgs(args: readonly string[]): ServeOptions {
  const out: ServeOptions = {};
  for (let i = 0; i < args.length; i++) {
    const token = args[i];
    const eq = token.indexOf("=");
    const flag = eq === -1 ? token : token.slice(0, eq);
    const value = eq === -1 ? args[++i] : token.slice(eq + 1);
    if (flag === "--transport" && (value === "stdio" || value === "http")) out.transport = value;
    else if (flag === "--port" && /^\d{1,5}$/.test(value ?? "") && Number(value) <= 65535) out.port = Number(value);
    else if (flag === "--mock" && /^https?:\/\/[^/\s]+\/?$/.test(value ?? "")) out.mock = value;
    else {
      throw new UsageError(
        `Unexpected serve option '${token}'. Use --transport stdio|http, --port N and --mock http://HOST:PORT.`,
      );
    }
  }
  return out;
}
