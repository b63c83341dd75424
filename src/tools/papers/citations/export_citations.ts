/**
 * export_citations: BibTeX, RIS, CSL-JSON and eight CSL styles (APA, MLA, Vancouver, Chicago, IEEE, Nature,
 * Harvard, AMA) for PMIDs, DOIs, arXiv ids, PMCIDs and W ids, formatted from the best record each id resolves
 * to (resolve_records.ts), as CSL-JSON.
 */
import { z } from "../../../core/zod.ts";
import { invalidInput, ToolError } from "../../../core/errors.ts";
import { textBlock } from "../../../render/markdown.ts";
import { parseWorkRef, type WorkRef } from "../../../sources/works/ids.ts";
import { readRecord } from "../../../sources/pdf/paper_library.ts";
import { EXPORT_STYLES, formatCitations } from "../../../sources/citations/format.ts";
import { defineTool, READS_NETWORK } from "../../tool_def.ts";
import { resolveRecords } from "./resolve_records.ts";
import { updateLine } from "../../../sources/works/updates.ts";
import { updateSchema } from "../schemas.ts";
import { cursorInput, cursorOffset, nextPage, type OffsetPaging, offsetPaging } from "../../../core/envelope.ts";
import { nextCallLine, nextCallSchema } from "../../../core/next_call.ts";

/** Pages over the ids asked for (#31): a page ends after its last formatted work; not_found names ids before it. */
const PAGES: OffsetPaging = {
  tool: "export_citations",
  path: "items",
  positionOf: (r: Result, i, args) => uniqueIds(args).indexOf(r.items[i].id),
  trim: (r: Result, kept, args) => {
    const ids = uniqueIds(args);
    const end = ids.indexOf(r.items[kept - 1].id);
    return { ...r, not_found: r.not_found.filter((n) => ids.indexOf(n.id) < end) };
  },
};

const input = z.object({
  ids: z.array(z.string().trim().min(1).max(300)).min(1).max(50).describe(
    "PMIDs, DOIs, arXiv ids, PMCIDs, W ids, library names",
  ),
  styles: z.array(z.enum(EXPORT_STYLES)).min(1).max(EXPORT_STYLES.length).default(["bibtex"]).describe(
    "Formats; each *_string is a reference in that official CSL style",
  ),
  cursor: cursorInput(),
});

const citationsSchema = z.object(Object.fromEntries(EXPORT_STYLES.map((s) => [s, z.string().optional()])));

const output = z.object({
  items: z.array(z.object({
    id: z.string(),
    source: z.enum(["PubMed", "Crossref", "OpenAlex", "arXiv"]),
    retracted: z.string().optional().describe("The retraction notice: do not cite as valid"),
    updates: z.array(updateSchema).optional().describe(
      "Notices about the work: correction, expression_of_concern, retraction, … (Crossref, PubMed)",
    ),
    citations: citationsSchema,
  })),
  not_found: z.array(z.object({ id: z.string(), reason: z.string() })),
  total_count: z.number().int().describe("Distinct ids asked for"),
  next_cursor: z.string().optional().describe("cursor of the next page"),
  next: nextCallSchema,
});

type Result = z.output<typeof output>;

function uniqueIds(args: Record<string, unknown>): string[] {
  return [...new Set(args.ids as string[])];
}

export const exportCitations = defineTool({
  name: "export_citations",
  title: "Export citations for any work",
  toolset: "papers",
  description: "Formatted citations from PubMed, Crossref, OpenAlex or arXiv records; flags retracted works " +
    "and lists corrections and expressions of concern. " +
    "Cite from this, never from memory. " +
    'Example: {"ids":["9500320","10.5555/12345678"],"styles":["bibtex"]}',
  input,
  output,
  annotations: READS_NETWORK,
  examples: [{ ids: ["34843274", "10.5555/12345678", "W2741809807"], styles: ["bibtex", "ris"] }],
  async run(args, ctx) {
    const all = uniqueIds(args);
    const offset = cursorOffset(PAGES, args);
    const ids = all.slice(offset);
    const refs: WorkRef[] = await Promise.all(ids.map(async (id) => {
      const ref = parseWorkRef(id) ?? await libraryRef(ctx.config.pdf.library, id);
      if (!ref) {
        throw invalidInput("ids", `'${id}' is not a PMID, PMCID, DOI, arXiv id, OpenAlex W id or library name`, id);
      }
      return ref;
    }));
    const styles = [...new Set(args.styles)];
    const resolved = await resolveRecords(refs, ctx);
    const items = [];
    const notFound = [];
    for (const [i, r] of resolved.entries()) {
      if ("notFound" in r) notFound.push({ id: ids[i], reason: r.notFound });
      else {
        items.push({
          id: ids[i],
          source: r.source,
          ...(r.retraction ? { retracted: r.retraction } : {}),
          ...(r.updates ? { updates: r.updates } : {}),
          citations: await formatCitations(r.record, styles, ctx.signal),
        });
      }
    }
    if (items.length === 0) {
      throw new ToolError(
        "ENTITY_NOT_FOUND",
        `No record for ${notFound.map((n) => `${n.id} (${n.reason})`).join("; ")}.`,
        "Check the ids; find papers with search_papers or searchPubMedArticles.",
        { invalidInput: { field: "ids", value: ids } },
      );
    }
    return { items, not_found: notFound, total_count: all.length, ...nextPage(PAGES, args, all.length, all.length) };
  },
  render: (r) =>
    textBlock(
      `${r.items.length} works formatted, ${r.not_found.length} not found (of ${r.total_count} ids).`,
      r.not_found.map((n) => `not found: ${n.id}: ${n.reason}`),
      r.items.flatMap((item) => [
        "",
        `## ${item.id} (${item.source})${item.retracted ? ` RETRACTED: ${item.retracted}` : ""}`,
        ...(item.updates ? [`updates: ${item.updates.map(updateLine).join("; ")}`] : []),
        ...Object.entries(item.citations).flatMap(([style, text]) => [`${style}:`, "```", text ?? "", "```"]),
      ]),
      "",
      nextCallLine(r.next, "cursor") ?? "last page",
    ),
  paging: offsetPaging(PAGES),
});

/** A library name (save_paper: `arxiv-1111.2011`) as the id it was saved by, read from its sidecar. */
async function libraryRef(dir: string, name: string): Promise<WorkRef | undefined> {
  const kind = /^(pmid|pmcid|doi|arxiv|openalex)-/.exec(name)?.[1] as WorkRef["kind"] | undefined;
  const id = kind && (await readRecord(dir, name))?.ids?.[kind];
  return id ? parseWorkRef(id) : undefined;
}
