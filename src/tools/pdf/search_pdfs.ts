/**
 * search_pdfs: one query across every PDF in PDF_ROOT, through the same library (text caches, extractor
 * pool) and the same matching as search_pdf. Files come back ranked (most hits, or for a words query the
 * best passage, first), each with its first per_file passages; files that cannot be read are listed with the
 * reason, so a model knows what was not searched. A page holds what fits in the output budget; next_cursor
 * continues with the next passages.
 */
import { z } from "../../core/zod.ts";
import { cursorBinding, decodeCursor, encodeCursor } from "../../core/envelope.ts";
import { defineTool, READS_LOCAL } from "../tool_def.ts";
import { normalizeQuery } from "../../sources/pdf/normalize.ts";
import { type PassageSpan, passageText } from "../../sources/pdf/passages.ts";
import { pdfLibrary, unreadableWarning } from "../../sources/pdf/pdf_library.ts";
import { MAX_SEARCHED } from "../../sources/pdf/pdf_files.ts";
import { parseQuery } from "../../sources/pdf/query.ts";
import { pageOf, type PdfDocument, searchDocument } from "../../sources/pdf/search.ts";
import { cutLine, nextCallLine, outputBudget, passageCap } from "./budget.ts";
import { extractorNote } from "./extractor_note.ts";
import { count } from "../../render/markdown.ts";
import { contextLength, cursor, emptyQuery, nextCall, noMatchHint, passage, QUERY_DESCRIPTION } from "./shared.ts";
import { serverLine } from "../../render/markdown.ts";

const input = z.object({
  query: z.string().min(1).max(1000).describe(QUERY_DESCRIPTION),
  context_length: contextLength(300),
  per_file: z.number().int().min(1).max(20).default(3).describe("Passages per PDF"),
  cursor,
});

const output = z.object({
  query_exists: z.boolean().describe("True when some PDF contains the phrase or one of the query's words"),
  total_matches: z.number().int().describe("Hits over all PDFs searched"),
  files_searched: z.number().int().describe("PDFs whose text was searched"),
  files: z.array(z.object({
    pdf_name: z.string().describe("Pass to search_pdf for more passages"),
    page_count: z.number().int().describe("Pages in the PDF"),
    total_matches: z.number().int().describe("Hits in this PDF"),
    passages: z.array(z.object({
      page: z.number().int().describe("1-based page of the passage's first hit"),
      offset: z.number().int().describe("Offset of its first hit in the pdf://files/{name} text"),
      offsets: z.array(z.number().int()).describe("Offsets of every hit in the passage"),
      text: z.string().describe("The passage, every hit in **…**"),
    })).describe("This page's share of the PDF's first per_file passages"),
    warning: z.string().optional().describe("Damaged pages that were skipped"),
  })).describe("PDFs with at least one hit, best first"),
  not_searched: z.array(z.object({
    pdf_name: z.string().describe("The PDF"),
    error: z.string().describe("Why it could not be searched"),
  })).describe("PDFs that could not be read, and why (first page only)"),
  mode: z.string().optional().describe("How the query was matched (see search_pdf)"),
  words: z.array(z.string()).optional().describe("The words looked for (words mode)"),
  warnings: z.array(z.string()).optional().describe("E.g. a wait for a PDF extractor to start"),
  truncated: z.boolean().describe(
    `True when the output budget cut this page short, or PDF_ROOT holds more than the ${MAX_SEARCHED} PDFs searched`,
  ),
  next_cursor: z.string().optional().describe("Pass as cursor, same other arguments, for the next passages"),
  next: nextCall,
  hint: z.string().optional().describe("What to try when nothing matched"),
});

type Output = z.input<typeof output>;
type FileHits = Output["files"][number];

interface Found {
  name: string;
  doc: PdfDocument;
  total: number;
  passages: PassageSpan[];
  warning?: string;
}

export const searchPdfs = defineTool({
  name: "search_pdfs",
  title: "Search every local PDF",
  toolset: "pdf",
  description: "Search every local PDF, matching as search_pdf: best PDFs first, each with its first " +
    'per_file passages; unreadable PDFs with the reason. Example: {"query":"heparin"}',
  input,
  output,
  annotations: READS_LOCAL,
  examples: [{ query: "heparin" }, { query: "pulmonary embolism", context_length: 200, per_file: 2 }],
  async run(args, ctx): Promise<Output> {
    if (!normalizeQuery(args.query)) throw emptyQuery(args.query);
    const binding = await cursorBinding("search_pdfs", {
      query: args.query,
      context_length: args.context_length,
      per_file: args.per_file,
    });
    const from = decodeCursor(args.cursor, binding, "search_pdfs");
    const budget = outputBudget(ctx);
    const library = pdfLibrary(ctx);
    const { files, total: inRoot, truncated: more } = await library.files();
    const found: Found[] = [];
    const notSearched: { pdf_name: string; error: string }[] = [];
    let searched = 0;
    // Known before any PDF is opened: a search whose every PDF its trigram filter ruled out still has a mode.
    const query = parseQuery(args.query);
    // Phrase: the phrase; words: any word's stem (what a matching word starts with).
    const needles = query.mode === "phrase" ? [query.phrase] : query.words.map((w) => w.stem);
    const { note } = await extractorNote(ctx, async () => {
      let done = 0;
      for await (
        const { file, outcome } of library.openMatching(files, needles, { signal: ctx.signal, log: ctx.log })
      ) {
        // Reported as each file comes back (indexed ones are read ahead, so "now searching" would be a guess).
        await ctx.progress(++done, files.length, `searched ${file.name}.pdf`);
        if (!outcome) {
          searched++; // its trigram filter rules the query out: nothing to open
          continue;
        }
        if (outcome.status === "missing") continue;
        if (outcome.status === "failed") {
          notSearched.push({ pdf_name: file.name, error: outcome.message });
          continue;
        }
        searched++;
        const doc = outcome.doc;
        const hits = searchDocument(doc, args.query, {
          contextLength: args.context_length,
          maxWeight: passageCap(budget),
        });
        if (hits.total === 0) continue;
        const warning = unreadableWarning(doc.pageCount, doc.unreadable);
        const passages = hits.passages.slice(0, args.per_file);
        found.push({ name: file.name, doc, total: hits.total, passages, ...(warning ? { warning } : {}) });
      }
    });
    // A PDF whose best passage is in its reference list comes after every PDF with a body passage (#34).
    const inReferences = (f: Found) => f.passages[0].inReferences ? 1 : 0;
    found.sort((a, b) =>
      inReferences(a) - inReferences(b) || (b.passages[0].score ?? 0) - (a.passages[0].score ?? 0) ||
      b.total - a.total || a.name.localeCompare(b.name)
    );
    const total = found.reduce((n, f) => n + f.total, 0);
    const result: Output = {
      query_exists: total > 0,
      total_matches: total,
      files_searched: searched,
      files: [],
      not_searched: from === 0 ? notSearched : [],
      mode: query.mode,
      ...(query.mode === "words" ? { words: query.words.map((w) => w.word) } : {}),
      ...(note || more
        ? { warnings: [note, more ? notAll(files.length, inRoot) : undefined].filter((w) => w !== undefined) }
        : {}),
      truncated: more,
      ...(total === 0 ? { hint: noMatchHint(query, "all") } : {}),
    };
    // Every (file, passage) pair in rank order; a page is a run of them from the cursor on.
    const pairs = found.flatMap((f) => f.passages.map((span) => ({ f, span })));
    const pageFor = (shown: number): Output => {
      const files: FileHits[] = [];
      for (const { f, span } of pairs.slice(from, from + shown)) {
        let entry = files.at(-1);
        if (entry?.pdf_name !== f.name) {
          entry = { pdf_name: f.name, page_count: f.doc.pageCount, total_matches: f.total, passages: [] };
          if (f.warning) entry.warning = f.warning;
          files.push(entry);
        }
        const offsets = span.hits.map((h) => h.start);
        const page = pageOf(f.doc.pageStarts, offsets[0]);
        entry.passages.push({ page, offset: offsets[0], offsets, text: passageText(f.doc.text, span) });
      }
      const rest = from + shown < pairs.length;
      const cursor = rest ? encodeCursor(from + shown, binding) : undefined;
      const cut = shown < pairs.length - from;
      return {
        ...result,
        files,
        truncated: more || cut,
        ...(cursor ? { next_cursor: cursor, next: { tool: "search_pdfs", arguments: { ...args, cursor } } } : {}),
      };
    };
    let shown = pairs.length - from;
    // Rendering is linear in the passages shown: halve until it fits, then grow one by one.
    while (shown > 1 && render(pageFor(shown)).length > budget) shown = Math.max(1, Math.floor(shown / 2));
    while (from + shown < pairs.length && render(pageFor(shown + 1)).length <= budget) shown++;
    return pageFor(Math.max(0, shown));
  },
  render,
});

function render(result: Output): string {
  const how = result.mode === "words" ? ` (words mode, ranked by ${result.words?.join(", ")})` : "";
  const lines = [
    `## ${count(result.total_matches, "hit")}${
      result.files.length ? ` in ${count(result.files.length, "PDF")}` : ""
    }; ${count(result.files_searched, "PDF")} searched${how}` +
    (result.mode === "phrase" ? " (phrase mode)" : ""),
  ];
  for (const warning of result.warnings ?? []) lines.push(`warning: ${warning}`);
  if (result.hint) lines.push(serverLine(`hint: ${result.hint}`));
  for (const f of result.files) {
    lines.push("", `### ${f.pdf_name}.pdf — ${f.total_matches} hits, ${f.page_count} pages`);
    if (f.warning) lines.push(`warning: ${f.warning}`);
    for (const p of f.passages) lines.push(passage(p.page, p.offsets, p.text));
  }
  if (result.not_searched.length) {
    lines.push("", "### Not searched");
    for (const n of result.not_searched) lines.push(`- ${n.pdf_name}.pdf: ${n.error}`);
  }
  if (result.next) lines.push("", cutLine(result.files.reduce((n, f) => n + f.passages.length, 0)));
  if (result.next) lines.push(nextCallLine(result.next.tool, result.next.arguments));
  return lines.join("\n");
}

/** The warning when PDF_ROOT holds more PDFs than one search covers. */
function notAll(searched: number, inRoot: number): string {
  return `Only the first ${searched} of the ${inRoot} PDFs in PDF_ROOT (by name) were searched; search_pdf searches ` +
    "any one of them, list_pdfs pages through all.";
}
