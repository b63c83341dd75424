/**
 * science-mcp: an MCP server for scientific sources (PubMed, NCBI Gene, PubChem, arXiv/OpenAlex papers,
 * local PDFs). This module is the public API; run it (`deno run mod.ts`) for the CLI.
 *
 * @example
 * ```ts
 * import { createRuntime, createMcpServer } from "@science-mcp/server";
 * const server = createMcpServer(createRuntime());
 * ```
 * @module
 */
export { ALL_TOOLS, enabledResources, enabledTools, TOOLSETS } from "./src/catalog.ts";
export {
  type Config,
  ConfigError,
  ENV_VARS,
  loadConfig,
  TOOLSET_NAMES,
  type ToolsetName,
  VERSION,
} from "./src/config.ts";
export { ERROR_CODES, type ErrorCode, type ErrorEnvelope, ToolError, UpstreamError } from "./src/core/errors.ts";
export type { AnyToolDef, ResourceDef, ToolContext, ToolDef } from "./src/core/tool_def.ts";
export { createRuntime, type Deps, type Runtime } from "./src/runtime.ts";
export { createMcpServer, type ServerOptions } from "./src/server.ts";
export type { Fetch, Upstream, UpstreamRequest, UpstreamResponse } from "./src/upstream/types.ts";
