/**
 * The next call as data (#21): a paged result carries `next: {tool, arguments}` beside its literal text
 * instruction, so a client can follow it without parsing prose. Every paging tool (cursor or seed offset)
 * builds it here and renders it with {@link nextCallLine}.
 */
import { z } from "./zod.ts";
import { serverLine } from "../render/markdown.ts";

export interface NextCall {
  tool: string;
  arguments: Record<string, unknown>;
}

/** The output field, described once for every tool. */
export const nextCallSchema = z.object({
  tool: z.string(),
  arguments: z.record(z.string(), z.unknown()),
}).optional().describe("The call that returns the next page (these arguments as they are); absent on the last page");

/**
 * The call for the next page: this call's arguments (defaults left out when undefined) with `changes` applied.
 * @example nextCall("search_genes", { query: "TP53", page_size: 20 }, { cursor: "eyJ2Ijox" })
 */
export function nextCall(tool: string, args: Record<string, unknown>, changes: Record<string, unknown>): NextCall {
  const merged = Object.fromEntries(
    Object.entries({ ...args, ...changes }).filter(([, value]) => value !== undefined),
  );
  return { tool, arguments: merged };
}

/**
 * The literal next-page instruction: which argument to change, then the whole call.
 * @example nextCallLine(next, "cursor") // next page: call again with cursor="eyJ2Ijox" — get_pubmed_links {...}
 */
export function nextCallLine(next: NextCall | undefined, argument: string): string | undefined {
  if (!next) return undefined;
  const value = JSON.stringify(next.arguments[argument]);
  return serverLine(`next page: call again with ${argument}=${value} — ${next.tool} ${JSON.stringify(next.arguments)}`);
}
