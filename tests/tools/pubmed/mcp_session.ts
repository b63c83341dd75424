/** Test helper: one MCP client session over scripted E-utilities answers (the shared tool harness). */
import type { Env } from "../../../src/config.ts";
export { errorOf } from "../../helpers/tool_result.ts";
import type { Route } from "../../helpers/runtime.ts";
import { type CallResult, type ToolHarness, withTools } from "../../helpers/tool_harness.ts";

export type ToolCallResult = CallResult;

/** Retries off, so an injected fault surfaces at once; a fake API key, to check it never leaks. */
const ENV: Env = { NCBI_MAX_RETRIES: "0", NCBI_API_KEY: "test-api-key-0123", SCIENCE_MCP_TOOLSETS: "pubmed" };

/** A session whose E-utilities answers come only from `routes` (anything else gets a 599). */
export async function withSession(
  routes: Route[],
  body: (session: Pick<ToolHarness, "call" | "requests" | "client">) => Promise<void>,
  env: Env = {},
): Promise<void> {
  await withTools({ routes, mockRoutes: [], env: { ...ENV, ...env } }, body);
}

export function dataOf<T = Record<string, unknown>>(result: ToolCallResult): T {
  if (result.isError) throw new Error(`expected success, got ${JSON.stringify(result.structuredContent)}`);
  return result.structuredContent as T;
}
