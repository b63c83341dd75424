/**
 * Hostile upstream bodies and the main thread: how long one body holds it (the parsers run there). An
 * 18 MB EFetch with two million entity references, a 100,000-deep JATS title and a 200-deep arXiv feed
 * are each handed to the parser entry point the sources use; the time until it returns or refuses is the
 * stall every other call of the process sees. Target: ≤ 250 ms each. (Oversized bodies never reach a
 * parser: the per-upstream caps stop them while streaming — tests/upstream/fetch_test.ts.)
 */
import { UpstreamError } from "../src/core/errors.ts";
import { parseArxivFeed } from "../src/sources/arxiv/parse_atom.ts";
import { parseNcbiXml } from "../src/sources/ncbi/eutils/xml.ts";
import { parsePmcArticles } from "../src/sources/pmc/parse_jats.ts";
import type { BenchOptions, BenchRow } from "./types.ts";

/** An EFetch of `mb` megabytes holding about one entity reference per 9 characters. */
function entityEfetch(mb: number): string {
  const article = (i: number) =>
    `<PubmedArticle><MedlineCitation><PMID>${i}</PMID><Article><ArticleTitle>T</ArticleTitle><Abstract>` +
    `<AbstractText>${"&amp; x &lt;".repeat(500)}</AbstractText></Abstract></Article></MedlineCitation></PubmedArticle>`;
  const parts = ['<?xml version="1.0"?><PubmedArticleSet>'];
  let size = 0;
  for (let i = 0; size < mb * 1_000_000; i++) {
    const a = article(i);
    parts.push(a);
    size += a.length;
  }
  parts.push("</PubmedArticleSet>");
  return parts.join("");
}

function deepJats(depth: number): string {
  return `<pmc-articleset><article><front><article-meta><title-group><article-title>${"<italic>".repeat(depth)}x${
    "</italic>".repeat(depth)
  }</article-title></title-group></article-meta></front></article></pmc-articleset>`;
}

/** Milliseconds the call holds the thread, and how it ended. */
function stall(parse: () => unknown): { ms: number; outcome: string } {
  const started = performance.now();
  let outcome = "parsed";
  try {
    parse();
  } catch (error) {
    outcome = error instanceof UpstreamError ? `UpstreamError (${error.kind})` : `${(error as Error).name}`;
  }
  return { ms: performance.now() - started, outcome };
}

export async function run(options: BenchOptions): Promise<BenchRow[]> {
  await Promise.resolve();
  const command = `deno task bench${options.quick ? " --quick" : ""} hostile_body`;
  const mb = options.quick ? 6 : 18;
  const efetch = entityEfetch(mb);
  const entities = efetch.split("&").length - 1;
  const url = "https://eutils.ncbi.nlm.nih.gov/entrez/eutils/efetch.fcgi";
  const cases: [string, () => unknown][] = [
    [`${mb} MB EFetch, ${(entities / 1e6).toFixed(1)} M entity references`, () => parseNcbiXml(efetch, url)],
    ["JATS title nested 100,000 deep", () => parsePmcArticles(deepJats(100_000), url)],
    ["arXiv feed nested 300 deep", () => parseArxivFeed(`<feed>${"<x>".repeat(300)}${"</x>".repeat(300)}</feed>`, url)],
  ];
  return cases.map(([label, parse]) => {
    const { ms, outcome } = stall(parse);
    return {
      name: `hostile body: ${label}, main thread held`,
      value: Math.round(ms),
      unit: "ms",
      target: "≤ 250 ms, an upstream error",
      pass: ms <= 250 && outcome.startsWith("UpstreamError"),
      command,
      notes: outcome,
    };
  });
}
