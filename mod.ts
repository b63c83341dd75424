/**
 * science-mcp: an MCP server for scientific sources (PubMed, NCBI Gene, PubChem, arXiv/OpenAlex papers,
 * local PDFs). This module is the public API; run it (`deno run mod.ts`) for the CLI. `main.ts` is the same
 * CLI without this API, so that `serve` imports a toolset on its first call rather than at start.
 *
 * @example Serve MCP over stdio from your own entry point
 * ```ts
 * import { createRuntime, runStdio } from "@science-mcp/server";
 * await runStdio(createRuntime());
 * ```
 *
 * @example Mount the Streamable HTTP handler in any fetch-style server
 * ```ts
 * import { createHttpHandler, createRuntime } from "@science-mcp/server";
 * const handler = createHttpHandler(createRuntime());
 * Deno.serve((request) => handler.fetch(request));
 * ```
 * @module
 */
export { ALL_TOOLS, enabledResources, enabledTools, type Toolset, TOOLSETS } from "./src/catalog.ts";
export type { Catalogue, ResourceInfo, ToolInfo } from "./src/lazy_catalog.ts";
export {
  type Access,
  type Config,
  ConfigError,
  type Env,
  ENV_VARS,
  type EnvVar,
  loadConfig,
  type LoadOptions,
  readEnv,
  TOOLSET_NAMES,
  type ToolsetName,
  VERSION,
} from "./src/config.ts";
export {
  ERROR_CODES,
  type ErrorCode,
  type ErrorEnvelope,
  type HintSituation,
  type RecoveryHints,
  ToolError,
  UpstreamError,
  type UpstreamErrorKind,
} from "./src/core/errors.ts";
export { invokeTool, type ToolResult } from "./src/core/invoke.ts";
export type { Paging } from "./src/core/output_budget.ts";
export type { AnyToolDef, ResourceDef, ToolAnnotations, ToolContext, ToolDef } from "./src/tools/tool_def.ts";
export type {
  CallDeadline,
  ImageBlock,
  InvokeContext,
  ResourceContent,
  ResourceDef as CoreResourceDef,
  ResourceEntry,
  ToolDef as CoreToolDef,
  ToolDefFor,
} from "./src/core/tool_def.ts";
export type { Clock } from "./src/core/clock.ts";
export {
  CallRegistry,
  guardRejections,
  type RejectionGuard,
  type TrackedCall,
  UNHANDLED_REJECTION,
} from "./src/core/rejection_guard.ts";
export type { Logger, LogLevel, LogRecord, LogSink } from "./src/core/log.ts";
export type { Provided, SharedKey, SharedStore } from "./src/core/shared_key.ts";
export type { SessionLog } from "./src/core/session_log.ts";
export type { Era } from "./src/protocol/eras.ts";
export type { StdioOptions } from "./src/transports/stdio.ts";
export type { SourceConfig, SourceContext } from "./src/context.ts";
export {
  type CallOrigin,
  callTool,
  type CallToolOptions,
  createRuntime,
  type Deps,
  type Runtime,
  type RuntimeOptions,
  toolContext,
} from "./src/runtime.ts";
export { createMcpServer, type ServerOptions } from "./src/server.ts";
export { createHttpHandler, type HttpHandler, type HttpHandlerOptions } from "./src/transports/http.ts";
export { type HttpServerOptions, type RunningHttpServer, startHttpServer } from "./src/transports/http_server.ts";
export { runStdio } from "./src/transports/stdio.ts";
export { type CliIo, main, runCli } from "./src/cli/main.ts";
export type { Fetch, Upstream, UpstreamRequest, UpstreamResponse } from "./src/upstream/types.ts";
export type { BaseUrlVar, PipelineSettings, Rate, Tunable, UpstreamDef } from "./src/upstream/def.ts";
export type { ResponseProbe, ThrottleDetector, ThrottleVerdict } from "./src/upstream/throttle.ts";
export type { NcbiSettings } from "./src/upstreams/ncbi_eutils.ts";
export type { CrossrefSettings } from "./src/upstreams/crossref.ts";
export type { OutputCut } from "./src/core/output_budget.ts";
export type { OpenAlexSettings } from "./src/upstreams/openalex.ts";
export type { UpstreamStatus } from "./src/upstream/types.ts";
export {
  type ServiceUpstream,
  type UpstreamName,
  UPSTREAMS,
  UPSTREAMS_BY_NAME,
  type UpstreamSettings,
} from "./src/upstreams/mod.ts";

import { main } from "./src/cli/main.ts";
// A bundle or compiled binary built from this module holds what main.ts imports on demand.
import "./src/cli/preload.ts";

if (import.meta.main) Deno.exit(await main());
