/**
 * The Harvester flow, timed: fetch_latest on arXiv over two pages (the mock enforces arXiv's one request
 * per 3 s and counts early arrivals), then fetch_content of the recorded 699 KB LaTeXML paper page by
 * page. Targets: no rate violation, the second API page ≥ 3 s after the first, two requests for the first
 * page of the paper and none for the rest (the text cache). CPU costs of the HTML converter and the
 * OpenAlex list parser on the largest recorded bodies are reported, not judged.
 */
import { htmlToText } from "../src/sources/html/html_to_text.ts";
import { parseList } from "../src/sources/openalex/parse_list.ts";
import { parseWork } from "../src/sources/openalex/parse_work.ts";
import { median, openBenchSession, totalViolations } from "./support.ts";
import type { BenchOptions, BenchRow } from "./types.ts";

const read = (path: string) => Deno.readTextFileSync(new URL(`../fixtures/${path}`, import.meta.url));

export async function run(options: BenchOptions): Promise<BenchRow[]> {
  const command = `deno task bench${options.quick ? " --quick" : ""} papers`;
  const session = await openBenchSession("papers-bench", { SCIENCE_MCP_TOOLSETS: "papers" });
  const { mock, call } = session;
  const rows: BenchRow[] = [];
  try {
    const started = performance.now();
    await call("fetch_latest", { source: "arxiv", category: "cs.LG", count: 150 });
    const api = mock.requests.filter((r) => r.prefix === "arxiv-api");
    const gap = api.length >= 2 ? (api[1].at - api[0].at) / 1000 : 0;
    rows.push(
      {
        name: "papers: fetch_latest arXiv, 2 pages, wall time",
        value: (performance.now() - started) / 1000,
        unit: "s",
        command,
      },
      {
        name: "papers: gap between the two arXiv API pages",
        value: gap,
        unit: "s",
        target: "≥ 3 s",
        pass: gap >= 2.97,
        command,
      },
    );

    const before = mock.requests.length;
    const first = performance.now();
    let page = await call("fetch_content", { source: "arxiv", id: "2501.11120v1" });
    const firstMs = performance.now() - first;
    const cold = mock.requests.length - before;
    let pages = 1;
    const rest = performance.now();
    while (typeof page.next_offset === "number" && !(options.quick && pages >= 3)) {
      page = await call("fetch_content", { source: "arxiv", id: "2501.11120v1", offset: page.next_offset });
      pages++;
    }
    const warm = mock.requests.length - before - cold;
    rows.push(
      { name: "papers: fetch_content first page (699 KB LaTeXML)", value: firstMs, unit: "ms", command },
      {
        name: "papers: requests for the first page",
        value: cold,
        unit: "requests",
        target: "= 2",
        pass: cold === 2,
        command,
      },
      {
        name: `papers: ${pages - 1} later pages, mean time`,
        value: pages > 1 ? (performance.now() - rest) / (pages - 1) : 0,
        unit: "ms",
        command,
      },
      {
        name: "papers: requests for the later pages",
        value: warm,
        unit: "requests",
        target: "= 0",
        pass: warm === 0,
        command,
      },
    );
    const violations = totalViolations(mock);
    rows.push({
      name: "papers: rate violations",
      value: violations,
      unit: "violations",
      target: "= 0",
      pass: violations === 0,
      command,
    });
  } finally {
    await session.close();
  }
  rows.push(cpu("papers: htmlToText on the 699 KB LaTeXML page", options, () => {
    htmlToText(read("arxiv/html/arxiv2md__html_2501.11120v1.html"));
  }));
  rows.push(cpu("papers: parse a 200-work OpenAlex page (3.6 MB)", options, () => {
    for (const raw of parseList(read("openalex/openalexsdk__works_search_english_africa.json"), "bench").results) {
      parseWork(raw);
    }
  }));
  return rows;
}

/** Median of a few runs, informative only. */
function cpu(name: string, options: BenchOptions, fn: () => void): BenchRow {
  const times: number[] = [];
  for (let i = 0; i < (options.quick ? 3 : 9); i++) {
    const t = performance.now();
    fn();
    times.push(performance.now() - t);
  }
  return { name, value: median(times), unit: "ms", notes: "median, reading the file included" };
}
