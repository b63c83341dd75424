/** pdf_digest: answer a question from a local PDF, quoting the passages used. */
import { pdfNames } from "./completions.ts";
import { call, definePrompt } from "./prompt_def.ts";

export const pdfDigest = definePrompt({
  name: "pdf_digest",
  title: "Answer a question from a local PDF",
  description: "Search one PDF of the server's PDF folder (or all of them) for a question and answer it with " +
    "page-cited quotes.",
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
  example: { question: "heparin dose", pdf_name: "dvt_prophylaxis_review" },
  render(args, tools) {
    const search = args.pdf_name
      ? call("search_pdf", { pdf_name: args.pdf_name, query: args.question, topk: 8 })
      : tools.has("search_pdfs")
      ? call("search_pdfs", { query: args.question })
      : `list_pdfs {}, then search_pdf on each relevant name with the query ${JSON.stringify(args.question)}`;
    return [
      `Answer this question from the local PDFs: ${args.question}`,
      "",
      `1. ${search}`,
      "2. Search again with synonyms or narrower terms if the passages do not answer it.",
      "",
      "Answer in a few sentences, then list the passages you relied on as quotes with PDF name and page. If the " +
      "PDFs do not answer the question, say so.",
    ].join("\n");
  },
});
