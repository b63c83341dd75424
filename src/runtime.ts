/**
 * Everything one server instance owns: the upstream pipeline (scheduler, cache), per-server singletons
 * and the enabled catalogue; and {@link toolContext}, which turns one call into a handler's context.
 * HTTP sessions share one Runtime; two runtimes never share state.
 */
import { type Config, loadConfig, readEnv } from "./config.ts";
import type { ToolContext } from "./context.ts";
import { errorResult, type ToolResult } from "./core/tool_result.ts";
import type { ErrorEnvelope } from "./core/errors.ts";
import { type Clock, systemClock } from "./core/clock.ts";
import { createLogger, LOG_LEVELS, type Logger, type LogLevel, type LogSink, stderrSink } from "./core/log.ts";
import { CallRegistry } from "./core/rejection_guard.ts";
import { onDemand } from "./core/on_demand.ts";
import type { Provided, SharedKey, SharedStore } from "./core/shared_key.ts";
import type { AnyToolDef } from "./tools/tool_def.ts";
import { type Catalogue, lazyCatalogue } from "./lazy_catalog.ts";
import type { Fetch } from "./upstream/types.ts";
import { serviceUpstream, upstreamReady } from "./upstreams/lazy.ts";
import type { ServiceUpstream } from "./upstreams/table.ts";

/** What a runtime is built on; each is injected (tests) or filled with its production default. */
export interface Deps {
  /** How upstream requests go out (default: `globalThis.fetch`). */
  fetch: Fetch;
  /** Time (default: the system clock). */
  clock: Clock;
  /** The configuration (default: read from the environment). */
  config: Config;
  /** The logger (default: JSON lines on stderr at MCP_LOG_LEVEL). */
  log: Logger;
}

/** One server instance's state: what its MCP sessions, HTTP handler and CLI calls share. */
export interface Runtime extends SharedStore {
  /** What it was built on. */
  readonly deps: Deps;
  /** The upstream pipeline (scheduler, cache, coalescer). */
  readonly upstream: ServiceUpstream;
  /**
   * The enabled tools and resources (SCIENCE_MCP_TOOLSETS): listed from the generated manifest, each
   * toolset's definitions imported on its first call.
   */
  readonly catalogue: Catalogue;
  /** Tool calls in flight and just ended, so an unhandled rejection can be traced to its call. */
  readonly calls: CallRegistry;
  /** Disposes singletons that hold resources (workers, file handles). */
  close(): Promise<void>;
}

/** Fills in production defaults for anything not injected. */
export function resolveDeps(partial: Partial<Deps> = {}): Deps {
  const config = partial.config ?? loadConfig(readEnv());
  const clock = partial.clock ?? systemClock;
  return {
    config,
    fetch: partial.fetch ?? ((request) => fetch(request)),
    clock,
    log: partial.log ?? createLogger({ level: "debug", sinks: [atLeast(config.logLevel, stderrSink)], clock }),
  };
}

/**
 * Every record reaches the logger's sinks, so an MCP client may ask (logging/setLevel) for more detail
 * than stderr shows; stderr itself keeps to MCP_LOG_LEVEL.
 */
function atLeast(level: LogLevel, sink: LogSink): LogSink {
  const min = LOG_LEVELS.indexOf(level);
  return (record) => {
    if (LOG_LEVELS.indexOf(record.level) >= min) sink(record);
  };
}

/** What a runtime is built from: any of its Deps, plus singletons provided up front (a toolset's own deps). */
export interface RuntimeOptions extends Partial<Deps> {
  /** Entries made with `provide(key, value)`; a toolset reads them with `ctx.shared(key, default)`. */
  provide?: readonly Provided[];
  /**
   * The catalogue (default: the enabled toolsets, imported on first use). Tests inject one to watch or
   * break the imports.
   * @ignore
   */
  catalogue?: Catalogue;
}

/** Builds a runtime; with no options, from the environment, as `deno task start` does. */
export function createRuntime(options: RuntimeOptions = {}): Runtime {
  const { provide = [], catalogue, ...partial } = options;
  const deps = resolveDeps(partial);
  const singletons = new Map<SharedKey<unknown> | string, unknown>(provide);
  const upstream = serviceUpstream(deps);
  return {
    deps,
    upstream,
    catalogue: catalogue ?? lazyCatalogue(deps.config.toolsets),
    calls: new CallRegistry(),
    shared<T>(key: SharedKey<T> | string, make: () => T): T {
      if (!singletons.has(key)) singletons.set(key, make());
      return singletons.get(key) as T;
    },
    async close() {
      for (const value of singletons.values()) {
        const v = value as { close?: () => unknown; [Symbol.asyncDispose]?: () => Promise<void> };
        try {
          if (typeof v?.[Symbol.asyncDispose] === "function") await v[Symbol.asyncDispose]!();
          else if (typeof v?.close === "function") await v.close();
        } catch (error) {
          deps.log.warn("error while closing a shared resource", { error: String(error) });
        }
      }
      singletons.clear();
      upstream.close?.();
    },
  };
}

/** Where a call comes from: its cancellation, ids for the log, and how to send progress notifications. */
export interface CallOrigin {
  /** The caller's cancellation. */
  signal: AbortSignal;
  /** The request id, on every log record of the call. */
  requestId: string;
  /** The MCP session, when there is one. */
  sessionId?: string;
  /** The caller's progress token: progress is sent only when it asked. */
  progressToken?: string | number;
  /** Sends a notification (progress) to the caller. */
  notify?: (notification: { method: string; params: Record<string, unknown> }) => Promise<void>;
  /** Overrides the configured output budget for this call (the CLI's --max-chars). */
  outputBudget?: number;
}

/** The context of one tool call or resource read (MCP and CLI alike). */
export function toolContext(runtime: Runtime, origin: CallOrigin): ToolContext {
  const { config, clock } = runtime.deps;
  return {
    config,
    clock,
    upstream: runtime.upstream,
    signal: origin.signal,
    outputBudget: origin.outputBudget ?? config.outputMaxChars,
    ...(config.toolCallTimeoutMs > 0
      ? { deadline: { ms: config.toolCallTimeoutMs, setting: "TOOL_CALL_TIMEOUT_MS" } }
      : {}),
    log: runtime.deps.log.child({
      request: origin.requestId,
      ...(origin.sessionId ? { session: origin.sessionId } : {}),
    }),
    shared: runtime.shared,
    async progress(progress, total, message) {
      if (origin.progressToken === undefined || !origin.notify) return;
      await origin.notify({
        method: "notifications/progress",
        params: {
          progressToken: origin.progressToken,
          progress,
          ...(total === undefined ? {} : { total }),
          ...(message ? { message } : {}),
        },
      }).catch(() => {});
    },
  };
}

/** Options of {@link callTool}. */
export interface CallToolOptions {
  /** Cancels the call (and its upstream requests). */
  signal?: AbortSignal;
  /** Receives the tool's progress notifications (`progress`, `total`, `message`). */
  onProgress?: (params: Record<string, unknown>) => void;
}

/**
 * One tool call for embedders, in one line: the same argument validation, deadline, output check, text
 * rendering and error envelope as an MCP `tools/call`. An unknown name is an INVALID_INPUT result that
 * lists the enabled tools, not an exception.
 *
 * @example
 * ```ts
 * const runtime = createRuntime();
 * const result = await callTool(runtime, "search_genes", { query: "BRCA1", organism: "human" });
 * console.log(result.content[0].text);
 * await runtime.close();
 * ```
 */
export async function callTool(
  runtime: Runtime,
  name: string,
  args: Record<string, unknown> = {},
  options: CallToolOptions = {},
): Promise<ToolResult> {
  const loaded = await loadTool(runtime, name);
  if ("error" in loaded) return errorResult(loaded.error);
  if (!loaded.def) {
    return errorResult({
      code: "INVALID_INPUT",
      message: `Unknown tool '${name}'.`,
      recovery_hint: `Use one of: ${runtime.catalogue.tools.map((t) => t.name).join(", ")}.`,
    });
  }
  const def = loaded.def;
  const ctx = toolContext(runtime, {
    signal: options.signal ?? new AbortController().signal,
    requestId: `call-${crypto.randomUUID()}`,
    ...(options.onProgress
      ? { progressToken: "embedder", notify: (n) => Promise.resolve(options.onProgress!(n.params)) }
      : {}),
  });
  return await invokeShared(runtime, def, args, ctx);
}

/**
 * The ToolDef of an enabled tool, importing its toolset on first use; undefined for an unknown name. A
 * toolset that cannot be imported (a broken install, a permission) is one tool error naming it, not a
 * crash, and the next call tries the import again.
 */
export async function loadTool(
  runtime: Runtime,
  name: string,
): Promise<{ def: AnyToolDef | undefined } | { error: ErrorEnvelope }> {
  try {
    return { def: await runtime.catalogue.tool(name) };
  } catch (error) {
    const toolset = runtime.catalogue.tools.find((t) => t.name === name)?.toolset;
    runtime.deps.log.error("toolset failed to load", { tool: name, toolset, error: String(error) });
    return {
      error: {
        code: "INTERNAL",
        message: `The ${toolset} toolset could not be loaded: ${error instanceof Error ? error.message : error}`,
        recovery_hint: "This is a fault of the server's installation, not of the call: other toolsets still " +
          "work; report it with the server's stderr log.",
      },
    };
  }
}

type SharedCalls = typeof import("./invoke_shared.ts");
/** src/invoke_shared.ts once imported (the same module for every runtime of the process). */
let sharedCalls: SharedCalls | undefined;

/**
 * invokeTool, parsing once: a call of a network tool that only reads (its annotations say so) is answered
 * from a result made in the last minutes, or shares an identical call in flight; local tools (PDFs, whose
 * files change) always run. MCP, the CLI and {@link callTool} all call this. The call path (validation, the
 * output budget, rendering) is imported on the first call (src/invoke_shared.ts): a server that has only
 * listed its tools has not loaded it. The upstream pipeline is awaited for network tools only: a local tool
 * (`openWorldHint: false`: the PDF tools) asks no upstream, and a server whose first call searches a PDF
 * does not build it (~5–8 ms of CPU, #36).
 */
export async function invokeShared(
  runtime: Runtime,
  def: AnyToolDef,
  args: unknown,
  ctx: ToolContext,
): Promise<ToolResult> {
  const upstream = def.annotations.openWorldHint === false ? undefined : upstreamReady(runtime.upstream);
  if (!sharedCalls) {
    const [calls] = await Promise.all([onDemand<SharedCalls>("invoke_shared.ts"), upstream]);
    sharedCalls = calls;
  } else if (upstream) await upstream;
  return await sharedCalls.invokeOnce(runtime, def, args, ctx);
}
