/** pdf_digest: answer a question from a local PDF, quoting the passages used. */
import { pdfNames } from "./completions.ts";
import { call, definePrompt } from "./prompt_def.ts";

/** Words of a question that are not search terms. */
const FILLER = new Set(
  ("a an and are as at be by can could did do does for from has have how i in is it its me my of on or our should " +
    "tell that the their there these this those to was we were what when where which who whom why will with would " +
    "you your about any some much many more most than then into over under after before between during recommended " +
    "explain describe give list show find according")
    .split(" "),
);

/**
 * The search terms of a question, most specific (longest) first, at most `max`: PDF search matches a word or
 * a quoted phrase, so the whole question would find nothing.
 * @example searchTerms("What is the recommended heparin dose?") // ["heparin", "dose"]
 */
export function searchTerms(question: string, max = 3): string[] {
  const words = question.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}-]*/gu) ?? [];
  const terms = [...new Set(words.filter((w) => w.length >= 3 && !FILLER.has(w)))];
  const chosen = terms.sort((a, b) => b.length - a.length).slice(0, max);
  return chosen.length > 0 ? chosen : [question.trim()];
}

export const pdfDigest = definePrompt({
  name: "pdf_digest",
  title: "Answer a question from a local PDF",
  description: "Search one PDF of the server's PDF folder (or all of them) for a question's key terms and answer " +
    "it with page-cited quotes.",
  toolsets: ["pdf"],
  arguments: [
    { name: "question", description: "What you want to know, e.g. recommended heparin dose", required: true },
    {
      name: "pdf_name",
      description: "A PDF in the PDF folder; leave out to search all",
      required: false,
      complete: pdfNames,
    },
  ],
  example: { question: "What is the recommended heparin dose?", pdf_name: "dvt_prophylaxis_review" },
  render(args, tools) {
    const terms = searchTerms(args.question);
    const searches = terms.map((query) =>
      args.pdf_name
        ? call("search_pdf", { pdf_name: args.pdf_name, query, topk: 8 })
        : tools.has("search_pdfs")
        ? call("search_pdfs", { query })
        : `list_pdfs {}, then search_pdf on each relevant name with the query ${JSON.stringify(query)}`
    );
    return [
      `Answer this question from the local PDFs: ${args.question}`,
      "",
      "Search for its key terms, one call each (a word or a quoted phrase matches; a whole question does not):",
      ...searches.map((s, i) => `${i + 1}. ${s}`),
      `${searches.length + 1}. Search again with synonyms or narrower terms if the passages do not answer it.`,
      "",
      "Answer in a few sentences, then list the passages you relied on as quotes with PDF name and page. If the " +
      "PDFs do not answer the question, say so.",
    ].join("\n");
  },
});
