/**
 * get_citation_graph: a work's references, the works citing it, or related works, from OpenAlex
 * (`cited_by:`, `cites:` and `related_to:` filters), for a PMID, PMCID, DOI, arXiv id or W id.
 */
import { z } from "../../../core/zod.ts";
import { cursorBinding, cursorInput } from "../../../core/envelope.ts";
import { invalidInput, ToolError } from "../../../core/errors.ts";
import { OpenAlexClient } from "../../../sources/openalex/client.ts";
import { openalexKey, parseWorkRef } from "../../../sources/works/ids.ts";
import { nextCall, nextCallLine, nextCallSchema } from "../../../core/next_call.ts";
import { count, DATA_LINE, textBlock, warningLines } from "../../../render/markdown.ts";
import { type Warning, warningSchema } from "../schemas.ts";
import { defineTool, READS_NETWORK } from "../../tool_def.ts";
import { type WorkItem, workItem, workItemSchema, workLine } from "./work_item.ts";

const TOOL = "get_citation_graph";
const FILTER = { references: "cited_by", cited_by: "cites", related: "related_to" } as const;

const input = z.object({
  id: z.string().trim().min(1).max(300).describe("PMID, PMCID, DOI, arXiv id or OpenAlex W id"),
  relation: z.enum(["references", "cited_by", "related"]).default("references").describe("cited_by: citing works"),
  limit: z.number().int().min(1).max(100).default(25).describe("Works per page"),
  cursor: cursorInput(TOOL),
});

const output = z.object({
  work: workItemSchema.pick({ openalex: true, doi: true, pmid: true, pmcid: true, title: true }),
  relation: z.string(),
  total_count: z.number().int(),
  items: z.array(workItemSchema),
  next_cursor: z.string().optional(),
  next: nextCallSchema,
  warnings: z.array(warningSchema).optional().describe("UnreadableRecords: list entries that were not works"),
});

export const getCitationGraph = defineTool({
  name: TOOL,
  title: "Citation graph of any work",
  toolset: "papers",
  description: "A paper's references, citing or related works (OpenAlex), with W id, DOI, PMID where known. " +
    "PubMed's own links: getArticleRelationships. " +
    'Example: {"id":"10.7717/peerj.4375","relation":"cited_by"}',
  input,
  output,
  annotations: READS_NETWORK,
  examples: [
    { id: "W2741809807", relation: "references", limit: 5 },
    { id: "PMID:29456894", relation: "cited_by" },
  ],
  async run(args, ctx) {
    const ref = parseWorkRef(args.id);
    if (!ref) {
      throw invalidInput("id", "not a PMID, PMCID, DOI, arXiv id or OpenAlex W id", args.id);
    }
    const binding = await cursorBinding(TOOL, { id: args.id, relation: args.relation });
    const client = new OpenAlexClient(ctx);
    const work = await client.work(openalexKey(ref)).catch((error) => {
      throw error instanceof ToolError && error.code === "ENTITY_NOT_FOUND"
        ? new ToolError(
          "ENTITY_NOT_FOUND",
          `OpenAlex has no work for ${args.id}.`,
          "Check the id, or find the " +
            "paper with search_papers (source openalex).",
          { invalidInput: { field: "id", value: args.id }, cause: error },
        )
        : error;
    });
    const page = await client.worksCursorPage(
      { filter: `${FILTER[args.relation]}:${work.id}`, sort: "cited_by_count:desc" },
      args.limit,
      decodeGraphCursor(args.cursor, binding),
    );
    const warnings: Warning[] = page.unreadable
      ? [{
        code: "UnreadableRecords",
        message: `OpenAlex sent ${count(page.unreadable, "list entry", "list entries")} on this page that ` +
          "could not be read as a work record; left out of items, so items may be fewer than limit.",
      }]
      : [];
    return {
      work: pickWork(workItem(work)),
      relation: args.relation,
      total_count: page.total,
      items: page.works.map(workItem),
      ...(page.nextCursor ? withNext(args, encodeGraphCursor(page.nextCursor, binding)) : {}),
      ...(warnings.length ? { warnings } : {}),
    };
  },
  render: (r) =>
    textBlock(
      // The summary names the work by its title: retrieved text, fenced with the list.
      `${DATA_LINE}${count(r.items.length, "work")} of ${r.total_count} (${r.relation}) for ${workLine(r.work)}`,
      r.items.map((w) => `- ${workLine(w)}`),
      nextCallLine(r.next, "cursor"),
      warningLines(r.warnings),
    ),
});

/** The cursor and the whole call that reads the next page with it (#34). */
function withNext(args: z.infer<typeof input>, cursor: string) {
  const { id, relation, limit } = args;
  return { next_cursor: cursor, next: nextCall(TOOL, { id, relation, limit }, { cursor }) };
}

function pickWork(
  { openalex, doi, pmid, pmcid, title }: WorkItem,
): Pick<WorkItem, "openalex" | "doi" | "pmid" | "pmcid" | "title"> {
  return Object.fromEntries(Object.entries({ openalex, doi, pmid, pmcid, title }).filter(([, v]) => v !== undefined));
}

/** Our cursor wraps OpenAlex's with a binding to the id and relation, so it cannot page another list. */
function encodeGraphCursor(openalexCursor: string, binding: string): string {
  const json = JSON.stringify({ v: 1, c: openalexCursor, h: binding });
  return btoa(String.fromCharCode(...new TextEncoder().encode(json))).replace(/\+/g, "-").replace(/\//g, "_")
    .replace(/=+$/, "");
}

function decodeGraphCursor(cursor: string | undefined, binding: string): string {
  if (cursor === undefined) return "*";
  let decoded: { v?: unknown; c?: unknown; h?: unknown } | undefined;
  try {
    const b64 = cursor.replace(/-/g, "+").replace(/_/g, "/");
    decoded = JSON.parse(new TextDecoder().decode(Uint8Array.from(atob(b64), (ch) => ch.charCodeAt(0))));
  } catch {
    decoded = undefined;
  }
  if (decoded?.v !== 1 || typeof decoded.c !== "string" || decoded.h !== binding) {
    throw invalidInput(
      "cursor",
      decoded?.v === 1 ? `this cursor belongs to a different ${TOOL} query` : "not a cursor issued by this server",
      cursor,
      `Pass next_cursor exactly as the previous ${TOOL} call returned it, with the same id and relation.`,
    );
  }
  return decoded.c;
}
