/** literature_review: search, read and synthesise the literature on a topic, citing paper ids. */
import { arxivCategories } from "./completions.ts";
import { call, definePrompt } from "./prompt_def.ts";

export const literatureReview = definePrompt({
  name: "literature_review",
  title: "Literature review on a topic",
  description: "Find the most cited and the newest papers and preprints on a topic since a year (OpenAlex, " +
    "arXiv, PubMed reviews), read " +
    "the key ones in full and write a structured review that cites every claim.",
  toolsets: ["papers"],
  arguments: [
    { name: "topic", description: "What the review is about, e.g. protein structure prediction", required: true },
    { name: "since", description: "Earliest publication year, e.g. 2018", required: false },
    {
      name: "arxiv_category",
      description: "arXiv category to search the topic's preprints in, e.g. q-bio.BM",
      required: false,
      complete: arxivCategories,
    },
  ],
  example: { topic: "protein structure prediction", since: "2018", arxiv_category: "q-bio.BM" },
  render(args, tools) {
    const since = /^\d{4}$/.test(args.since ?? "") ? args.since : undefined;
    // Every search carries the topic and the date range (#34): a step without them answers another question.
    const openalex = (sort: string, count: number) =>
      call("search_papers", { query: args.topic, source: "openalex", sort, from_date: since, count });
    const steps = [
      `${openalex("citations", 15)} for the most cited work.`,
      `${openalex("date", 10)} for the newest.`,
      `${
        call("search_papers", {
          query: arxivQuery(args.topic, args.arxiv_category),
          source: "arxiv",
          sort: "date",
          from_date: since,
          count: 10,
        })
      } for the newest preprints on the topic.`,
      tools.has("searchPubMedArticles")
        ? `${
          call("searchPubMedArticles", {
            queryTerm: args.topic,
            filterByPublicationTypes: ["Review"],
            ...(since ? { dateRange: { minDate: since } } : {}),
            maxResults: 10,
            fetchBriefSummaries: 10,
          })
        } for biomedical reviews.`
        : "",
      "fetch_content on the 4-6 most relevant papers (pass each paper's id and source; PMIDs, PMCIDs and DOIs " +
      "take source pubmed), following next_offset when a section you need is further on.",
    ].filter(Boolean);
    return [
      `Write a literature review on "${args.topic}"${since ? ` covering work since ${since}` : ""}.`,
      "",
      "Gather the evidence with these tool calls:",
      ...steps.map((s, i) => `${i + 1}. ${s}`),
      "",
      "Then write: ## Scope (what was searched, how many hits), ## Key findings (grouped by theme, with " +
      "agreements and disagreements), ## Methods and data, ## Open questions, ## References (id, title, year).",
      "Cite every claim with the paper id it comes from. Say which papers you could not read in full, and never " +
      "cite a paper you did not retrieve.",
    ].join("\n");
  },
});

/**
 * The arXiv query for the topic's preprints: its words (arXiv ANDs them), within the category when one is
 * given (`cat:q-bio.BM AND all:protein AND …`), so the listing is about the topic, not the whole category.
 */
export function arxivQuery(topic: string, category: string | undefined): string {
  if (!category) return topic;
  const words = (topic.match(/"[^"]*"|[^\s"]+/g) ?? []).filter((w) => !/^(and|or|andnot)$/i.test(w));
  return [`cat:${category}`, ...words.map((w) => `all:${w}`)].join(" AND ");
}
