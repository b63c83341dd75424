/**
 * What sources and tool handlers receive. Sources get a {@link SourceContext} (the pipeline, the clock,
 * the configuration they read, a logger, the caller's cancellation); handlers get a {@link ToolContext},
 * which adds progress reporting, per-runtime singletons and the whole configuration.
 */
import type { Config } from "./config.ts";
import type { Clock } from "./core/clock.ts";
import type { Logger } from "./core/log.ts";
import type { SharedStore } from "./core/shared_key.ts";
import type { CallDeadline } from "./core/tool_def.ts";
import type { ServiceUpstream } from "./upstreams/mod.ts";

/** The configuration sources read: base URLs, credentials they report on, limits. */
export type SourceConfig = Pick<
  Config,
  "baseUrls" | "ncbi" | "openalex" | "pdf" | "cacheDir" | "upstreamTimeoutMs" | "upstreamMaxBytes"
>;

/** Everything a source adapter may use. Everything is injected: sources never touch globals. */
export interface SourceContext {
  /** The pipeline: every upstream request goes through it. */
  upstream: ServiceUpstream;
  /** Time, injected (tests drive a manual clock). */
  clock: Clock;
  /** The settings sources read. */
  config: SourceConfig;
  /** Structured logging to stderr (and the session's log). */
  log: Logger;
  /** Aborted when the caller cancels (MCP notifications/cancelled, CLI Ctrl-C). */
  signal: AbortSignal;
}

/** What a handler may use: a SourceContext plus progress and per-runtime singletons. */
export interface ToolContext extends SourceContext, SharedStore {
  /** The whole configuration. */
  config: Config;
  /** Reports progress: an MCP progress notification when the caller asked for one, a bar in the CLI. */
  progress(progress: number, total?: number, message?: string): Promise<void>;
  /** The call's deadline (TOOL_CALL_TIMEOUT_MS); invokeTool aborts `signal` when it passes. */
  deadline?: CallDeadline;
  /** Characters of text one result may hold (SCIENCE_MCP_MAX_OUTPUT_CHARS, or the CLI's --max-chars). */
  outputBudget: number;
}
