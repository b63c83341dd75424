/** Reading tool-call results in MCP tests, the same way in every toolset. */
import type { ErrorEnvelope } from "../../src/core/errors.ts";

/**
 * The error envelope of a failed tool call. A successful call throws, so a test can never read an error
 * that is not there.
 *
 * @example
 * assert.equal(errorOf(await client.callTool({ name: "get_gene", arguments: {} })).code, "INVALID_INPUT");
 */
export function errorOf(result: { isError?: boolean; structuredContent?: unknown }): ErrorEnvelope {
  if (!result.isError) throw new Error(`expected an error, got ${JSON.stringify(result.structuredContent)}`);
  return (result.structuredContent as { error: ErrorEnvelope }).error;
}
