/**
 * Everything one server instance owns: the upstream pipeline (scheduler, cache), per-server singletons
 * and the enabled catalogue; and {@link toolContext}, which turns one call into a handler's context.
 * HTTP sessions share one Runtime; two runtimes never share state.
 */
import { type Config, loadConfig, readEnv } from "./config.ts";
import type { ToolContext } from "./context.ts";
import { type Clock, systemClock } from "./core/clock.ts";
import { createLogger, LOG_LEVELS, type Logger, type LogLevel, type LogSink, stderrSink } from "./core/log.ts";
import type { Provided, SharedKey, SharedStore } from "./core/shared_key.ts";
import type { AnyToolDef, ResourceDef } from "./tools/tool_def.ts";
import { enabledResources, enabledTools } from "./catalog.ts";
import type { Fetch } from "./upstream/types.ts";
import { createUpstream, type ServiceUpstream } from "./upstreams/mod.ts";

export interface Deps {
  fetch: Fetch;
  clock: Clock;
  config: Config;
  log: Logger;
}

export interface Runtime extends SharedStore {
  readonly deps: Deps;
  readonly upstream: ServiceUpstream;
  readonly tools: readonly AnyToolDef[];
  readonly resources: readonly ResourceDef[];
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
}

export function createRuntime(options: RuntimeOptions = {}): Runtime {
  const { provide = [], ...partial } = options;
  const deps = resolveDeps(partial);
  const singletons = new Map<SharedKey<unknown> | string, unknown>(provide);
  const upstream = createUpstream(deps);
  return {
    deps,
    upstream,
    tools: enabledTools(deps.config.toolsets),
    resources: enabledResources(deps.config.toolsets),
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
  signal: AbortSignal;
  requestId: string;
  sessionId?: string;
  progressToken?: string | number;
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
