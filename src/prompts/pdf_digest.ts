/** pdf_digest: answer a question from a local PDF, quoting the passages used. */
import { pdfNames } from "./completions.ts";
import { call, definePrompt } from "./prompt_def.ts";

export const pdfDigest = definePrompt({
  name: "pdf_digest",
  title: "Answer a question from a local PDF",
  description: "Search one PDF of the server's PDF folder (or all of them) for a question, ranked by its words, " +
    "and answer it with page-cited quotes.",
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
    // The tools rank passages by a question's words (reference lists last): one search, the question as asked,
    // in passages short enough to quote (600 characters: eight of them read about 5,500 characters).
    const query = args.question.trim();
    const search = args.pdf_name
      ? call("search_pdf", { pdf_name: args.pdf_name, query, context_length: 600, topk: 8 })
      : tools.has("search_pdfs")
      ? call("search_pdfs", { query })
      : `list_pdfs {}, then search_pdf on each relevant name with the query ${JSON.stringify(query)}`;
    return [
      `Answer this question from the local PDFs: ${args.question}`,
      "",
      `1. ${search} returns the passages that best match the question's words, best first.`,
      '2. If they do not answer it, search again with other words, or a "quoted phrase" for an exact match.',
      "",
      "Answer in a few sentences, then list the passages you relied on as quotes with PDF name and page. If the " +
      "PDFs do not answer the question, say so.",
    ].join("\n");
  },
});
