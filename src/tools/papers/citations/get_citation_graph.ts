/**
 * get_citation_graph: a work's references, the works citing it, or related works, from OpenAlex
 * (`cited_by:`, `cites:` and `related_to:` filters), for a PMID, PMCID, DOI, arXiv id or W id.
 */
import { z } from "../../../core/zod.ts";
import { cursorBinding, cursorInput, decodePosition, encodePosition } from "../../../core/envelope.ts";
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
    const start = startOf(args);
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
    // The upstream page at mark c is asked for the s works already shown plus a page (s < limit ≤ 100).
    const page = await client.worksCursorPage(
      { filter: `${FILTER[args.relation]}:${work.id}`, sort: "cited_by_count:desc" },
      start.s + args.limit,
      start.c,
    );
    const items = page.works.slice(start.s, start.s + args.limit).map(workItem);
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
      items,
      ...(page.nextCursor ? withNext(args, { o: start.o + items.length, c: page.nextCursor, s: 0 }) : {}),
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
  // A cut page goes on inside the same upstream page, after the works kept (#31).
  paging: {
    argument: "cursor",
    path: "items",
    keep: (r, kept, args) => {
      const start = startOf(args);
      return { ...r, ...withNext(args, { o: start.o + kept, c: start.c, s: start.s + kept }) };
    },
  },
});

/**
 * Where a page starts: `c` OpenAlex's cursor of the upstream page, `s` the works of it already shown, `o` the
 * works before the page. The cursor is bound to the id and relation, so it cannot page another list.
 */
interface GraphPosition {
  o: number;
  c: string;
  s: number;
}

function startOf(args: Record<string, unknown>): GraphPosition {
  if (typeof args.cursor !== "string") return { o: 0, c: "*", s: 0 };
  const position = decodePosition(args.cursor, bindingOf(args), TOOL);
  const { c, s } = position as Partial<GraphPosition>;
  if (typeof c !== "string" || (s !== undefined && !Number.isInteger(s))) {
    throw invalidInput("cursor", "not a cursor issued by this server", args.cursor);
  }
  return { o: position.o, c, s: s ?? 0 };
}

function bindingOf(args: Record<string, unknown>): string {
  return cursorBinding(TOOL, { id: args.id, relation: args.relation });
}

/** The cursor and the whole call that reads the next page with it (#34). */
function withNext(args: Record<string, unknown>, position: GraphPosition) {
  const { id, relation, limit } = args;
  const cursor = encodePosition(position, bindingOf(args));
  return { next_cursor: cursor, next: nextCall(TOOL, { id, relation, limit }, { cursor }) };
}

function pickWork(
  { openalex, doi, pmid, pmcid, title }: WorkItem,
): Pick<WorkItem, "openalex" | "doi" | "pmid" | "pmcid" | "title"> {
  return Object.fromEntries(Object.entries({ openalex, doi, pmid, pmcid, title }).filter(([, v]) => v !== undefined));
}
