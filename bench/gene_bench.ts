/**
 * The gene half of Fuzzy-to-Fact, timed: search_genes("TP53", human) → get_gene → get_pubmed_links over
 * MCP, through the real pipeline, against the mock upstream at NCBI's real pace (3 requests/s, enforced
 * by the mock) with an added network latency on every NCBI answer. The TP53 record is the recorded
 * 15.8 MB EFetch body. Targets: ≤ 4 NCBI requests cold (ESearch + ESummary, EFetch, ELink), 0 warm, no
 * rate violation, and no step holding the event loop (which every other call of the process shares) for more
 * than 250 ms: a zero-delay timer chain measures the longest gap between two of its turns during each step.
 * Per-step times are reported, not judged: they depend on the machine.
 */
import { openBenchSession, totalViolations } from "./support.ts";
import type { BenchOptions, BenchRow } from "./types.ts";

/** Round-trip time added to every NCBI answer (E-utilities from Europe/US typically answer in 100–400 ms). */
const LATENCY_MS = 150;

interface Step {
  tool: string;
  ms: number;
  requests: number;
  /** Longest gap between two turns of the event loop during the step. */
  stallMs: number;
}

/** Runs `work` while a zero-delay timer chain records the longest gap between two of its turns. */
async function withStallMeter<T>(work: () => Promise<T>): Promise<{ value: T; stallMs: number }> {
  let last = performance.now();
  let stallMs = 0;
  let done = false;
  const tick = () => {
    const now = performance.now();
    stallMs = Math.max(stallMs, now - last);
    last = now;
    if (!done) setTimeout(tick, 0);
  };
  setTimeout(tick, 0);
  try {
    return { value: await work(), stallMs };
  } finally {
    done = true;
  }
}

export async function run(options: BenchOptions): Promise<BenchRow[]> {
  const command = `deno task bench${options.quick ? " --quick" : ""} gene`;
  const session = await openBenchSession("gene-bench", { SCIENCE_MCP_TOOLSETS: "gene" });
  const { mock } = session;
  mock.setFault("ncbi", { kind: "delay", ms: LATENCY_MS });

  async function step(
    tool: string,
    args: Record<string, unknown>,
  ): Promise<Step & { result: Record<string, unknown> }> {
    const before = mock.requests.length;
    const started = performance.now();
    const { value: result, stallMs } = await withStallMeter(() => session.call(tool, args));
    return { tool, ms: performance.now() - started, requests: mock.requests.length - before, result, stallMs };
  }

  async function chain(): Promise<Step[]> {
    const search = await step("search_genes", { query: "TP53", organism: "human" });
    const id = (search.result.items as { id: string }[])[0].id;
    const gene = await step("get_gene", { entrez_id: id });
    const links = await step("get_pubmed_links", { entrez_id: id, limit: 100 });
    return [search, gene, links];
  }

  try {
    const cold = await chain();
    const warm = await chain();
    const violations = totalViolations(mock);
    const total = (steps: Step[], key: "ms" | "requests") => steps.reduce((sum, s) => sum + s[key], 0);
    const rows: BenchRow[] = cold.map((s) => ({
      name: `gene chain cold: ${s.tool}`,
      value: s.ms,
      unit: "ms",
      command,
      notes: `${s.requests} NCBI request(s), ${LATENCY_MS} ms latency each, 3 req/s pacing`,
    }));
    rows.push(
      {
        name: "gene chain cold: NCBI requests",
        value: total(cold, "requests"),
        unit: "requests",
        target: "≤ 4",
        pass: total(cold, "requests") <= 4,
        command,
        notes: "ESearch + ESummary, EFetch (15.8 MB TP53 record), ELink",
      },
      { name: "gene chain cold: total", value: total(cold, "ms"), unit: "ms", command },
      {
        name: "gene chain warm: NCBI requests",
        value: total(warm, "requests"),
        unit: "requests",
        target: "= 0",
        pass: total(warm, "requests") === 0,
        command,
      },
      {
        name: "gene chain warm: total",
        value: total(warm, "ms"),
        unit: "ms",
        command,
        notes: warm.map((s) => `${s.tool} ${s.ms.toFixed(0)} ms`).join(", "),
      },
      {
        name: "gene chain cold: get_gene (15.8 MB TP53 record), longest event-loop stall",
        value: Math.round(cold[1].stallMs),
        unit: "ms",
        target: "≤ 250 ms",
        pass: cold[1].stallMs <= 250,
        command,
        notes: "server and in-process mock upstream together (the mock cuts the record from its 26 MB set); " +
          "warm calls are answered from the result memo, without parsing",
      },
      {
        name: "gene chain: rate violations",
        value: violations,
        unit: "violations",
        target: "= 0",
        pass: violations === 0,
        command,
      },
    );
    return rows;
  } finally {
    await session.close();
  }
}
