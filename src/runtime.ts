/**
 * Everything one server instance owns: the upstream pipeline (scheduler, cache), per-server singletons
 * and the enabled catalogue. HTTP sessions share one Runtime; two runtimes never share state.
 */
import { type Config, loadConfig, readEnv } from "./config.ts";
import { type Clock, systemClock } from "./core/clock.ts";
import { createLogger, LOG_LEVELS, type Logger, type LogLevel, type LogSink, stderrSink } from "./core/log.ts";
import type { AnyToolDef, ResourceDef } from "./core/tool_def.ts";
import { enabledResources, enabledTools } from "./catalog.ts";
import { createUpstream } from "./upstream/fetch_upstream.ts";
import type { Fetch, Upstream } from "./upstream/types.ts";

export interface Deps {
  fetch: Fetch;
  clock: Clock;
  config: Config;
  log: Logger;
}

export interface Runtime {
  readonly deps: Deps;
  readonly upstream: Upstream;
  readonly tools: readonly AnyToolDef[];
  readonly resources: readonly ResourceDef[];
  /** Per-runtime singletons, built on first use. */
  shared<T>(key: string, make: () => T): T;
  /** Disposes singletons that hold resources (workers, file handles). */
  close(): Promise<void>;
}

/** Fills in production defaults for anything not injected. */
export function resolveDeps(partial: Partial<Deps> = {}): Deps {
  const config = partial.config ?? loadConfig(readEnv());
  return {
    config,
    fetch: partial.fetch ?? ((request) => fetch(request)),
    clock: partial.clock ?? systemClock,
    log: partial.log ?? createLogger({ level: "debug", sinks: [atLeast(config.logLevel, stderrSink)] }),
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

export function createRuntime(partial: Partial<Deps> = {}): Runtime {
  const deps = resolveDeps(partial);
  const singletons = new Map<string, unknown>();
  return {
    deps,
    upstream: createUpstream(deps),
    tools: enabledTools(deps.config.toolsets),
    resources: enabledResources(deps.config.toolsets),
    shared<T>(key: string, make: () => T): T {
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
    },
  };
}
