/**
 * search_pdf: the spec's contract (file_exists / query_exists / matches / error) plus total_matches,
 * page_count, match_details and warnings. Missing files and unreadable PDFs are results, not tool errors, as the
 * contract says; names that try to be paths are INVALID_INPUT (naming pdf_name) so a model learns at
 * once that it must pass a plain name, and a well-formed name that is simply absent is file_exists:false.
 *
 * A deliberate refinement of the seed's "one string per match": hits close enough to share one window of
 * at most context_length share it (one string in `matches`, listing every hit's offset), so no text is
 * sent twice and no string outgrows context_length (#34); results page past topk with a cursor and stay
 * within the output budget (budget.ts).
 */
import { z } from "../../core/zod.ts";
import { cursorBinding, decodeCursor, encodeCursor } from "../../core/envelope.ts";
import { defineTool, READS_LOCAL } from "../tool_def.ts";
import { normalizeQuery } from "../../sources/pdf/normalize.ts";
import { passageText } from "../../sources/pdf/passages.ts";
import { assertPdfName } from "../../sources/pdf/pdf_name.ts";
import { pdfLibrary, unreadableWarning } from "../../sources/pdf/pdf_library.ts";
import { pageOf, searchDocument } from "../../sources/pdf/search.ts";
import { cutLine, linesThatFit, nextCallLine, outputBudget, passageCap } from "./budget.ts";
import { extractorNote } from "./extractor_note.ts";
import {
  contextLength,
  cursor,
  emptyQuery,
  nearestNames,
  nextCall,
  noMatchHint,
  passage,
  PDF_NAME_DESCRIPTION,
  QUERY_DESCRIPTION,
  SAMPLE_PDF,
  sparseTextNote,
} from "./shared.ts";
import { serverLine } from "../../render/markdown.ts";

const input = z.object({
  pdf_name: z.string().min(1).max(255).describe(PDF_NAME_DESCRIPTION),
  query: z.string().min(1).max(1000).describe(QUERY_DESCRIPTION),
  context_length: contextLength(2000),
  topk: z.number().int().min(1).max(100).default(10).describe("Most passages per page"),
  cursor,
});

const output = z.object({
  pdf_name: z.string().optional().describe("The PDF searched"),
  file_exists: z.boolean().describe("False when PDF_ROOT has no PDF of that name (call list_pdfs)"),
  query_exists: z.boolean().describe("True when the phrase, or at least one of the query's words, occurs"),
  matches: z.array(z.string()).describe(
    "Passages, every hit in **…**: a phrase's in document order, a words query's best first",
  ),
  error: z.string().optional().describe("Why the PDF could not be searched (corrupt, password, scanned, limits)"),
  warnings: z.array(z.string()).optional().describe("E.g. damaged pages that were skipped"),
  total_matches: z.number().int().describe("Hits in the whole document (matches shows a page of passages)"),
  page_count: z.number().int().describe("Pages in the PDF (0 when it could not be opened)"),
  match_details: z.array(z.object({
    page: z.number().int().describe("1-based page of the passage's first hit"),
    offset: z.number().int().describe("Offset of its first hit in the pdf://files/{name} text (pages joined by \\f)"),
    offsets: z.array(z.number().int()).describe("Offsets of every hit in the passage"),
  })).describe("Where each entry of matches is, same order"),
  mode: z.string().optional().describe(
    "phrase: exact match of a word or quoted phrase; words: passages ranked by the query's words",
  ),
  words: z.array(z.string()).optional().describe("The words looked for (words mode; common words dropped)"),
  total_passages: z.number().int().optional().describe("Passages over all pages"),
  truncated: z.boolean().optional().describe("True when the output budget cut this page short"),
  next_cursor: z.string().optional().describe("Pass as cursor, same other arguments, for the next passages"),
  next: nextCall,
  hint: z.string().optional().describe("What to try when nothing matched"),
  nearest: z.array(z.string()).optional().describe("file_exists false: closest PDF names"),
});

type Output = z.input<typeof output>;

export const searchPdf = defineTool({
  name: "search_pdf",
  title: "Search a local PDF",
  toolset: "pdf",
  description: "Search one local PDF (names: list_pdfs): passages with hits in **…**, in page order, or ranked " +
    `for several words; nearby hits share a passage. Example: {"pdf_name":"${SAMPLE_PDF}","query":"heparin"}`,
  input,
  output,
  annotations: READS_LOCAL,
  examples: [
    { pdf_name: SAMPLE_PDF, query: "heparin", context_length: 300, topk: 3 },
    { pdf_name: SAMPLE_PDF, query: "recommended heparin dose", context_length: 400, topk: 3 },
  ],
  async run(args, ctx): Promise<Output> {
    assertPdfName(args.pdf_name);
    if (!normalizeQuery(args.query)) throw emptyQuery(args.query);
    const binding = await cursorBinding("search_pdf", {
      pdf_name: args.pdf_name,
      query: args.query,
      context_length: args.context_length,
    });
    const from = decodeCursor(args.cursor, binding, "search_pdf");
    const library = pdfLibrary(ctx);
    const outcome = await extractorNote(ctx, () =>
      library.open(args.pdf_name, {
        signal: ctx.signal,
        log: ctx.log,
        onProgress: (done, total) => void ctx.progress(done, total, `extracting ${args.pdf_name}.pdf`),
      }));
    const pdf_name = args.pdf_name;
    const empty = { query_exists: false, matches: [], total_matches: 0, match_details: [] };
    if (outcome.value.status === "missing") {
      // The seed's {file_exists:false, …}, plus the names the model most likely meant (#34).
      const nearest = nearestNames(pdf_name, (await library.files()).files.map((f) => f.name));
      return { pdf_name, file_exists: false, page_count: 0, ...empty, ...(nearest.length ? { nearest } : {}) };
    }
    if (outcome.value.status === "failed") {
      const { message, pageCount } = outcome.value;
      return { pdf_name, file_exists: true, page_count: pageCount, error: message, ...empty };
    }
    const doc = outcome.value.doc;
    const budget = outputBudget(ctx);
    const found = searchDocument(doc, args.query, {
      contextLength: args.context_length,
      maxWeight: passageCap(budget),
    });
    const warnings = [unreadableWarning(doc.pageCount, doc.unreadable), outcome.note].filter((w) => w !== undefined);
    const wanted = found.passages.slice(from, from + args.topk);
    const result: Output = {
      pdf_name,
      file_exists: true,
      query_exists: found.total > 0,
      matches: [],
      ...(warnings.length ? { warnings } : {}),
      total_matches: found.total,
      page_count: doc.pageCount,
      match_details: [],
      mode: found.query.mode,
      ...(found.query.mode === "words" ? { words: found.query.words.map((w) => w.word) } : {}),
      total_passages: found.passages.length,
      truncated: false,
    };
    if (found.total === 0) result.hint = [noMatchHint(found.query, "pdf"), sparseTextNote(doc)].join(" ").trim();
    const texts = wanted.map((span) => passageText(doc.text, span));
    const details = wanted.map((span) => {
      const offsets = span.hits.map((h) => h.start);
      return { page: pageOf(doc.pageStarts, offsets[0]), offset: offsets[0], offsets };
    });
    const lines = texts.map((text, i) => passage(details[i].page, details[i].offsets, text));
    const pageFor = (shown: number): Output => {
      const next = from + shown < found.passages.length ? from + shown : undefined;
      const cursor = next === undefined ? undefined : encodeCursor(next, binding);
      return {
        ...result,
        matches: texts.slice(0, shown),
        match_details: details.slice(0, shown),
        truncated: shown < wanted.length,
        ...(cursor ? { next_cursor: cursor, next: { tool: "search_pdf", arguments: { ...args, cursor } } } : {}),
      };
    };
    // The frame (heading, warnings, cut and next-page lines) measured with the longest cursor it may carry.
    let shown = linesThatFit(render(pageFor(0)).length + 300, lines, budget);
    while (shown > 1 && render(pageFor(shown)).length > budget) shown--;
    return pageFor(shown);
  },
  render,
});

function render(result: Output): string {
  const title = `## ${result.pdf_name ? `${result.pdf_name}.pdf` : "PDF"}`;
  if (!result.file_exists) {
    // The server's sentence stays outside the fence; the nearest names are file names, shown as data.
    const missing = serverLine("No PDF of that name in PDF_ROOT. Call list_pdfs for the names.");
    const nearest = result.nearest?.length ? [`Nearest names: ${result.nearest.join(", ")}`] : [];
    return [title, missing, ...nearest].join("\n");
  }
  const lines = [title, `pages: ${result.page_count}`];
  if (result.error) return [...lines, `error: ${result.error}`].join("\n");
  for (const warning of result.warnings ?? []) lines.push(`warning: ${warning}`);
  const total = result.total_passages ?? result.matches.length;
  const how = result.mode === "words" ? `words mode, ranked by ${result.words?.join(", ")}` : "phrase mode";
  lines.push(
    `matches: ${result.total_matches} hits in ${total} passages (${how})` +
      (total > result.matches.length ? `, showing ${result.matches.length}` : ""),
  );
  if (result.hint) lines.push(serverLine(`hint: ${result.hint}`));
  result.match_details.forEach((d, i) => lines.push(passage(d.page, d.offsets, result.matches[i])));
  if (result.truncated) lines.push(cutLine(result.matches.length));
  if (result.next) lines.push(nextCallLine(result.next.tool, result.next.arguments));
  return lines.join("\n");
}
