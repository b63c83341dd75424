/** Test helper: one MCP client session over a scripted E-utilities fetch. */
import type { Env } from "../../../src/config.ts";
export { errorOf } from "../../helpers/tool_result.ts";
import { connectClient, type Route, scriptedFetch, testRuntime } from "../../helpers/runtime.ts";

export interface ToolCallResult {
  isError?: boolean;
  structuredContent?: Record<string, unknown>;
  content: { type: string; text?: string }[];
}

/** Retries off, so an injected fault surfaces at once; a fake API key, to check it never leaks. */
const ENV: Env = { NCBI_MAX_RETRIES: "0", NCBI_API_KEY: "test-api-key-0123", SCIENCE_MCP_TOOLSETS: "pubmed" };

export async function withSession(
  routes: Route[],
  body: (session: {
    call(name: string, args: Record<string, unknown>): Promise<ToolCallResult>;
    requests: ReturnType<typeof scriptedFetch>["requests"];
    client: Awaited<ReturnType<typeof connectClient>>["client"];
  }) => Promise<void>,
  env: Env = {},
): Promise<void> {
  const fetch = scriptedFetch(...routes);
  const { client, close } = await connectClient(testRuntime({ fetch, env: { ...ENV, ...env } }));
  try {
    await body({
      client,
      requests: fetch.requests,
      call: async (name, args) => await client.callTool({ name, arguments: args }) as ToolCallResult,
    });
  } finally {
    await close();
  }
}

export function dataOf<T = Record<string, unknown>>(result: ToolCallResult): T {
  if (result.isError) throw new Error(`expected success, got ${JSON.stringify(result.structuredContent)}`);
  return result.structuredContent as T;
}
