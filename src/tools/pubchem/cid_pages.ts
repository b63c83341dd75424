/**
 * The structure, similarity and formula searches page by cursor (#31): `maxRecords` is the page size, and a
 * page from offset o asks PubChem for o + maxRecords + 1 CIDs (its MaxRecords counts from the first hit), so
 * the hits past 100 are reachable and the extra one says whether a next page exists.
 */
import { z } from "../../core/zod.ts";
import { cursorInput, cursorOffset, nextPage, type OffsetPaging, offsetPaging } from "../../core/envelope.ts";
import type { Paging } from "../../core/output_budget.ts";
import { type NextCall, nextCallLine, nextCallSchema } from "../../core/next_call.ts";
import { cidListSchema } from "./shared.ts";

/** The cursor argument of a CID search. */
export const cidCursorInput = cursorInput();

/** A CID search's answer: one page of CIDs and the call for the next. */
export const cidPageSchema = z.object({
  cids: cidListSchema,
  next_cursor: z.string().optional().describe("cursor of the next page"),
  next: nextCallSchema,
});

export interface CidPage {
  cids: number[];
  next_cursor?: string;
  next?: NextCall;
}

function pages(tool: string): OffsetPaging {
  return {
    tool,
    path: "cids",
    defining: (args) => {
      const { cursor: _cursor, maxRecords: _size, ...rest } = args;
      return rest;
    },
  };
}

/** One page of `tool`'s CIDs: `search(n)` returns the first n hits. */
export async function cidPage(
  tool: string,
  args: Record<string, unknown> & { maxRecords: number },
  search: (maxRecords: number) => Promise<number[]>,
): Promise<CidPage> {
  const spec = pages(tool);
  const offset = cursorOffset(spec, args);
  const hits = await search(offset + args.maxRecords + 1);
  const cids = hits.slice(offset, offset + args.maxRecords);
  return { cids, ...nextPage(spec, args, offset + cids.length, hits.length) };
}

/** The output budget's paging of a CID search. */
export function cidPaging(tool: string): Paging<CidPage> {
  return offsetPaging(pages(tool));
}

/** The next-page line under a page of CIDs. */
export function cidNextLine(page: CidPage): string {
  return nextCallLine(page.next, "cursor") ?? "last page";
}
