/** TEST-ONLY: small builders shared by the conformance fixture modules. */
import { z } from "zod";
import type { RawTool } from "../../src/server.ts";

export const noArgs = z.object({});
export const message = z.object({ message: z.string() });
export const annotations = { readOnlyHint: true, idempotentHint: true, openWorldHint: false };

export function raw(name: string, call: RawTool["call"], inputSchema: Record<string, unknown> = noSchema()): RawTool {
  return { tool: { name, description: `Conformance fixture ${name}.`, inputSchema: inputSchema as never }, call };
}

export function noSchema() {
  return { type: "object", properties: {}, additionalProperties: false };
}
