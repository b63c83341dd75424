/**
 * science-mcp: an MCP server for scientific sources (PubMed, NCBI Gene, PubChem, arXiv/OpenAlex papers,
 * local PDFs). This module is the public API; run it (`deno run mod.ts`) for the CLI.
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
export {
  type Config,
  ConfigError,
  ENV_VARS,
  loadConfig,
  readEnv,
  TOOLSET_NAMES,
  type ToolsetName,
  VERSION,
} from "./src/config.ts";
export { ERROR_CODES, type ErrorCode, type ErrorEnvelope, ToolError, UpstreamError } from "./src/core/errors.ts";
export { invokeTool, type ToolResult } from "./src/core/invoke.ts";
export type { AnyToolDef, ResourceDef, ToolAnnotations, ToolContext, ToolDef } from "./src/tools/tool_def.ts";
export type { SourceContext } from "./src/context.ts";
export { callTool, type CallToolOptions, createRuntime, type Deps, type Runtime, toolContext } from "./src/runtime.ts";
export { createMcpServer, type ServerOptions } from "./src/server.ts";
export { createHttpHandler, type HttpHandler, type HttpHandlerOptions } from "./src/transports/http.ts";
export { type HttpServerOptions, type RunningHttpServer, startHttpServer } from "./src/transports/http_server.ts";
export { runStdio } from "./src/transports/stdio.ts";
export { type CliIo, main, runCli } from "./src/cli/main.ts";
export type { Fetch, Upstream, UpstreamRequest, UpstreamResponse } from "./src/upstream/types.ts";
export type { PipelineSettings, UpstreamDef } from "./src/upstream/def.ts";
export { type UpstreamName, UPSTREAMS } from "./src/upstreams/mod.ts";

import { main } from "./src/cli/main.ts";

if (import.meta.main) Deno.exit(await main());
