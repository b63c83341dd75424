/**
 * save_paper: keeps the open-access PDF of a paper in the library (LIBRARY_DIR), where list_pdfs,
 * search_pdf, search_pdfs and render_pdf_page find it beside PDF_ROOT. The PDF is found through
 * fetch_content's tiers (content/pdf_copy.ts), opened by the contained extractor before it is kept, and
 * named by one rule per id (paper_library.ts) with a `<name>.json` sidecar of ids and citation metadata.
 * A paper already in the library (under this id or any id its sidecar records) is not fetched again.
 */
import { z } from "../../core/zod.ts";
import { invalidInput, ToolError } from "../../core/errors.ts";
import { textBlock } from "../../render/markdown.ts";
import { formatBytes } from "../../sources/pdf/limits.ts";
import { findSaved, keepPaper, libraryName, type LibraryRecord } from "../../sources/pdf/paper_library.ts";
import { parseWorkRef } from "../../sources/works/ids.ts";
import { defineTool, READS_NETWORK, type ToolContext } from "../tool_def.ts";
import { findPdfCopy } from "./content/pdf_copy.ts";

const ids = z.object({
  pmid: z.string().optional(),
  pmcid: z.string().optional(),
  doi: z.string().optional(),
  arxiv: z.string().optional(),
  openalex: z.string().optional(),
});

const output = z.object({
  name: z.string().describe("pdf_name; an export_citations id"),
  saved: z.boolean().describe("false: already saved"),
  title: z.string().nullable(),
  ids,
  authors: z.array(z.string()),
  year: z.number().int().nullable(),
  venue: z.string().nullable(),
  source_url: z.string(),
  licence: z.string().nullable(),
  retrieved: z.string().describe("YYYY-MM-DD"),
  pages: z.number().int(),
  bytes: z.number().int(),
  warnings: z.array(z.string()).optional(),
});

type Output = z.infer<typeof output>;

export const savePaper = defineTool({
  name: "save_paper",
  title: "Save a paper's PDF",
  toolset: "papers",
  description: "Save a paper's open-access PDF to the library (search_pdf(s), render_pdf_page). " +
    'Example: {"id":"1111.2011v2"}',
  input: z.object({ id: z.string().trim().min(1).max(300).describe("PMID, PMCID, DOI, arXiv id or W id") }),
  output,
  annotations: { ...READS_NETWORK, readOnlyHint: false, destructiveHint: false },
  examples: [{ id: "1111.2011v2" }],
  async run(args, ctx): Promise<Output> {
    const ref = parseWorkRef(args.id);
    if (!ref) {
      throw invalidInput(
        "id",
        "is not a PMID, PMCID, DOI, arXiv id or OpenAlex W id",
        args.id,
        "Use e.g. 31452104, PMC3299399, 10.1038/srep16696, 2501.11120 or W2741809807; search_papers finds ids.",
      );
    }
    const dir = ctx.config.pdf.library;
    const name = libraryName(ref.kind, ref.id);
    const known = await findSaved(dir, { [ref.kind]: ref.id });
    if (known) return { ...answer(known), saved: false };
    await ctx.progress(0, 3, `looking for an open PDF of ${args.id}`);
    const { meta, copy, attempts } = await findPdfCopy(ctx, ref);
    const again = await findSaved(dir, meta.ids);
    if (again) return { ...answer(again), saved: false };
    if (!copy) {
      const failure = attempts.failure(args.id, "");
      if (failure.code !== "NOT_AVAILABLE") throw failure;
      const publisher = attempts.list.some((a) => /no network permission/.test(a.outcome));
      throw new ToolError(
        "NOT_AVAILABLE",
        `No open copy of ${args.id} could be saved. Tiers tried: ${attempts.summary() || "none had a PDF link"}.`,
        publisher
          ? "A copy is on a publisher's host, which the default permission sets do not reach: start the server " +
            "with the open set (deno task start:open) to save it."
          : "fetch_content may still read its text or abstract; search_papers finds other versions.",
      );
    }
    const record: LibraryRecord = {
      name,
      ids: meta.ids,
      title: meta.title,
      authors: meta.authors,
      year: meta.year,
      venue: meta.venue,
      source_url: copy.url,
      licence: copy.licence ?? meta.licence,
      retrieved: new Date(ctx.clock.now()).toISOString().slice(0, 10),
      pages: copy.pages,
      bytes: copy.bytes.byteLength,
    };
    await write(ctx, dir, record, copy.bytes);
    const warnings = copy.noText
      ? ["The PDF has no text layer (scanned?): search finds nothing in it; render_pdf_page still shows its pages."]
      : undefined;
    return { ...answer(record), saved: true, ...(warnings ? { warnings } : {}) };
  },
  render: (r) =>
    textBlock(
      `# ${r.saved ? "Saved" : "Already in the library (not fetched again)"}: ${r.name}`,
      `title: ${r.title ?? "(untitled)"}`,
      `ids: ${idLine(r.ids)}`,
      [r.authors.slice(0, 6).join(", ") + (r.authors.length > 6 ? ", et al." : ""), r.year, r.venue]
        .filter(Boolean).join(" · "),
      `${r.pages} pages, ${formatBytes(r.bytes)} (${r.bytes} bytes), from ${r.source_url} (licence: ${
        r.licence ?? "not stated"
      }), ` +
        `retrieved ${r.retrieved}`,
      (r.warnings ?? []).map((w) => `warning: ${w}`),
      `next: search_pdf {"pdf_name":"${r.name}","query":"…"} or render_pdf_page {"pdf_name":"${r.name}","page":1}`,
    ),
});

function answer(r: LibraryRecord): Omit<Output, "saved"> {
  return {
    name: r.name,
    title: r.title ?? null,
    ids: r.ids ?? {},
    authors: r.authors ?? [],
    year: r.year ?? null,
    venue: r.venue ?? null,
    source_url: r.source_url ?? "",
    licence: r.licence ?? null,
    retrieved: r.retrieved ?? "",
    pages: r.pages ?? 0,
    bytes: r.bytes ?? 0,
  };
}

export function idLine(ids: Record<string, string | undefined>): string {
  return Object.entries(ids).filter(([, v]) => v).map(([k, v]) => `${k} ${v}`).join(", ");
}

async function write(ctx: ToolContext, dir: string, record: LibraryRecord, bytes: Uint8Array): Promise<void> {
  try {
    await keepPaper(dir, record, bytes);
  } catch (error) {
    if (
      error instanceof Deno.errors.NotCapable || error instanceof Deno.errors.PermissionDenied ||
      (error as Error)?.name === "ReadOnly" || /read-only file system/i.test(String(error))
    ) {
      ctx.log.warn("library folder not writable", { dir, error: String(error) });
      throw new ToolError(
        "NOT_AVAILABLE",
        `The library folder ${dir} (LIBRARY_DIR) may not be written by this server: nothing was kept.`,
        "The permission sets may write ./library only: unset LIBRARY_DIR, or grant --allow-write for its folder.",
      );
    }
    if (error instanceof Error && error.name in Deno.errors) {
      throw new ToolError(
        "NOT_AVAILABLE",
        `The paper could not be written to the library folder ${dir} (LIBRARY_DIR): ${error.message}.`,
        "Point LIBRARY_DIR at a folder (it is created when missing) on a disk with room.",
      );
    }
    throw error;
  }
}
