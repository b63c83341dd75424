/**
 * Upstream bodies and the main thread: how long one body holds it. Hostile bodies (an 18 MB EFetch with
 * two million entity references, a 100,000-deep JATS title, a 300-deep arXiv feed) are each handed to
 * the parser entry point the sources use; the time until it returns or refuses is the stall every other
 * call of the process sees. Large legitimate bodies (the recorded 26 MB gene EFetch set, a 16 MB OpenAlex
 * page) are parsed the way the sources parse them (parseBody), once inline and once on the parse worker,
 * in the same run, while a zero-delay timer chain measures the longest gap between two turns of the event
 * loop. Target: ≤ 250 ms each. (Oversized bodies never reach a parser: the per-upstream caps stop them
 * while streaming — tests/upstream/fetch_test.ts.)
 */
import { UpstreamError } from "../src/core/errors.ts";
import { parseArxivFeed } from "../src/sources/arxiv/parse_atom.ts";
import { parseNcbiXml } from "../src/sources/ncbi/eutils/xml.ts";
import { geneRecordJob } from "../src/sources/ncbi/gene/parse_efetch_gene.ts";
import { worksListJob } from "../src/sources/openalex/parse_work.ts";
import type { ParseJob } from "../src/sources/parse_job.ts";
import { ParseHost } from "../src/sources/parse_off_thread.ts";
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

/** The recorded 26 MB Entrezgene-Set (APOE, TNF, TP53, ERVW-28) as bytes. */
async function geneSetBytes(): Promise<Uint8Array> {
  const file = await Deno.open(
    new URL("../fixtures/ncbi/gene/biocommons__entrezgeneset-4-genes.xml.gz", import.meta.url),
  );
  return new Uint8Array(await new Response(file.readable.pipeThrough(new DecompressionStream("gzip"))).arrayBuffer());
}

/** An OpenAlex works page of at least `mb` MB: the recorded 3.6 MB page's 200 works, repeated. */
async function openAlexPage(mb: number): Promise<Uint8Array> {
  const page = JSON.parse(
    await Deno.readTextFile(
      new URL("../fixtures/openalex/openalexsdk__works_search_english_africa.json", import.meta.url),
    ),
  );
  const results = [...page.results];
  while (JSON.stringify(results).length < mb * 1_000_000) results.push(...page.results);
  return new TextEncoder().encode(JSON.stringify({ ...page, results }));
}

/** The longest gap between two turns of a zero-delay timer chain while `parse` runs, in ms. */
async function longestStall(parse: () => Promise<unknown>): Promise<number> {
  let last = performance.now();
  let longest = 0;
  let done = false;
  const tick = () => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
    if (!done) setTimeout(tick, 0);
  };
  setTimeout(tick, 0);
  try {
    await parse();
  } finally {
    done = true;
    tick();
  }
  return longest;
}

/** Longest stall over `runs` parses of `body`, inline (minBytes ∞) and on the worker (the default host). */
async function legitimateRows<A extends unknown[]>(
  label: string,
  job: ParseJob<A, unknown>,
  body: Uint8Array,
  args: A,
  runs: number,
  command: string,
): Promise<BenchRow[]> {
  const source = { body, url: "https://example.org/bench", text: () => new TextDecoder().decode(body) };
  const rows: BenchRow[] = [];
  for (
    const [where, host] of [["inline", new ParseHost({ minBytes: Infinity })], ["worker", new ParseHost()]] as const
  ) {
    let stall = 0;
    for (let i = 0; i < runs; i++) stall = Math.max(stall, await longestStall(() => host.parse(job, source, args)));
    host.close();
    rows.push({
      name: `large body: ${label}, ${where === "inline" ? "parsed inline" : "parse worker"}, longest main-thread stall`,
      value: Math.round(stall),
      unit: "ms",
      ...(where === "worker" ? { target: "≤ 250 ms", pass: stall <= 250 } : {}),
      command,
      notes: `${(body.length / 1e6).toFixed(1)} MB, worst of ${runs} parses${
        where === "worker" ? ", worker start included" : ""
      }`,
    });
  }
  return rows;
}

export async function run(options: BenchOptions): Promise<BenchRow[]> {
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
  const hostile = cases.map(([label, parse]) => {
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
  const runs = options.quick ? 1 : 3;
  return [
    ...hostile,
    ...await legitimateRows(
      "26 MB gene EFetch set, TP53 read",
      geneRecordJob,
      await geneSetBytes(),
      ["7157"],
      runs,
      command,
    ),
    ...await legitimateRows("16 MB OpenAlex works page", worksListJob, await openAlexPage(16), [], runs, command),
  ];
}
