import assert from "node:assert/strict";
import { ToolError, UpstreamError } from "../../../src/core/errors.ts";
import { memoryLogger } from "../../../src/core/log.ts";
import { arxivFeedJob, ArxivQueryError } from "../../../src/sources/arxiv/parse_atom.ts";
import { htmlTextJob } from "../../../src/sources/html/html_to_text.ts";
import { geneRecordJob } from "../../../src/sources/ncbi/gene/parse_efetch_gene.ts";
import { pubmedArticlesJob } from "../../../src/sources/ncbi/pubmed/parse_efetch.ts";
import { workJob, worksListJob } from "../../../src/sources/openalex/parse_work.ts";
import type { ParseJob } from "../../../src/sources/parse_job.ts";
import { PARSE_JOBS } from "../../../src/sources/parse_jobs.ts";
import { OFF_THREAD_MIN_BYTES, ParseHost, type ParseHostOptions } from "../../../src/sources/parse_off_thread.ts";
import { reviveError, sendError } from "../../../src/sources/parse_protocol.ts";
import { europePmcArticlesJob, pmcArticlesJob } from "../../../src/sources/pmc/parse_jats.ts";
import { fixture } from "../../helpers/runtime.ts";
import { spawnSequence, testWorker } from "./workers.ts";
import { cleanRetrievedText } from "../../../src/core/control_chars.ts";

const URL_SHOWN = "https://example.org/body";

function source(text: string) {
  return { body: new TextEncoder().encode(text), url: URL_SHOWN, text: () => text };
}

/** The recorded 26 MB Entrezgene-Set (APOE, TNF, TP53, ERVW-28), decompressed. */
async function geneSet(): Promise<string> {
  const file = await Deno.open(
    new URL("../../../fixtures/ncbi/gene/biocommons__entrezgeneset-4-genes.xml.gz", import.meta.url),
  );
  return await new Response(file.readable.pipeThrough(new DecompressionStream("gzip"))).text();
}

/** Runs `parse` and counts how often a zero-delay timer chain ran on this thread until it settled. */
async function ticksWhile<T>(parse: () => Promise<T>): Promise<{ value: T; ticks: number }> {
  let ticks = 0;
  let done = false;
  const tick = () => {
    if (done) return;
    ticks++;
    setTimeout(tick, 0);
  };
  setTimeout(tick, 0);
  try {
    const value = await parse();
    return { value, ticks };
  } finally {
    done = true;
  }
}

async function withHost(options: ParseHostOptions, body: (host: ParseHost) => Promise<void>): Promise<void> {
  const host = new ParseHost(options);
  try {
    await body(host);
  } finally {
    host.close();
  }
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  assert.fail("it resolved");
}

Deno.test("a 26 MB gene EFetch is parsed off the main thread: the loop keeps turning, the record is the inline one", async () => {
  const xml = await geneSet();
  assert.ok(xml.length >= OFF_THREAD_MIN_BYTES);
  await withHost({}, async (host) => {
    for (const geneId of ["7157", "348"]) {
      const inline = geneRecordJob.parse(xml, URL_SHOWN, geneId);
      const { value, ticks } = await ticksWhile(() => host.parse(geneRecordJob, source(xml), [geneId]));
      assert.deepEqual(value, inline);
      // A synchronous parse lets no timer run until it returns; the worker's lets them run throughout.
      assert.ok(ticks >= 3, `only ${ticks} timer turns while gene ${geneId} was parsed`);
    }
    assert.equal(host.inlineOnly, false);
  });
  await withHost({ minBytes: Infinity }, async (host) => {
    const { ticks } = await ticksWhile(() => host.parse(geneRecordJob, source(xml), ["7157"]));
    assert.equal(ticks, 0, "the inline parse holds the thread (the measure above tells the two apart)");
  });
});

Deno.test("a recorded 3.6 MB OpenAlex works page gives the same works on the worker as inline", async () => {
  const body = fixture("openalex/openalexsdk__works_search_english_africa.json");
  assert.ok(body.length >= OFF_THREAD_MIN_BYTES);
  await withHost({}, async (host) => {
    const { value, ticks } = await ticksWhile(() => host.parse(worksListJob, source(body), []));
    // Both paths parse the body as cleaned of control characters (it holds C1 non-sort marks: \x98The \x9c…).
    assert.deepEqual(value, worksListJob.parse(cleanRetrievedText(body), URL_SHOWN));
    assert.equal(value.works.length, 200);
    assert.ok(ticks >= 3, `only ${ticks} timer turns while the page was parsed`);
  });
});

/** A recorded body for every job of the worker's table (a new job without one fails the test below). */
const RECORDED: [ParseJob<never[], unknown>, string, unknown[]][] = [
  [geneRecordJob, "ncbi/gene/biocommons__gene_4747_2014.xml", ["4747"]],
  [worksListJob, "openalex/openalexsdk__works_search_english_africa.json", []],
  [workJob, "openalex/commonmeta__work_article_pone.0000030.json", []],
  [pmcArticlesJob, "ncbi/pmc/biocommons__pmc_PMC3299399.xml", []],
  [europePmcArticlesJob, "europepmc/pyeuropepmc__PMC3258128_fullTextXML.xml", []],
  [pubmedArticlesJob, "ncbi/pubmed/pubmedparser__medline16n0902.xml", []],
  [arxivFeedJob, "arxiv/api/arxivpy__search_testing_m10.atom.xml", []],
  [htmlTextJob, "arxiv/html/arxiv2md__html_2501.11120v1.html", []],
] as unknown as [ParseJob<never[], unknown>, string, unknown[]][];

Deno.test("every job of the worker's table gives on the worker what it gives inline (recorded bodies)", async () => {
  assert.deepEqual(RECORDED.map(([job]) => job.name).sort(), [...PARSE_JOBS.keys()].sort());
  await withHost({ minBytes: 0 }, async (host) => {
    for (const [job, path, args] of RECORDED) {
      const body = fixture(path);
      assert.deepEqual(
        await host.parse(job, source(body), args as never[]),
        job.parse(cleanRetrievedText(body), URL_SHOWN, ...args as never[]),
        path,
      );
    }
  });
});

Deno.test("errors cross over as the inline parse throws them: UpstreamError, ToolError, the job's own classes", async () => {
  const truncatedGene = fixture("ncbi/gene/biocommons__gene_4747_2014.xml").slice(0, 200_000);
  const cases: [ParseJob<never[], unknown>, string, unknown[], new (...a: never[]) => Error][] = [
    [geneRecordJob, truncatedGene, ["4747"], UpstreamError],
    [pubmedArticlesJob, fixture("ncbi/eutils/pubmedly__efetch_empty_id_error.xml"), [], ToolError],
    [arxivFeedJob, fixture("arxiv/api/arxivpy__id_abc_HTTP400_error.atom.xml"), [], ArxivQueryError],
  ] as unknown as [ParseJob<never[], unknown>, string, unknown[], new (...a: never[]) => Error][];
  await withHost({ minBytes: 0 }, async (host) => {
    for (const [job, body, args, cls] of cases) {
      let inline: unknown;
      try {
        job.parse(body, URL_SHOWN, ...args as never[]);
      } catch (error) {
        inline = error;
      }
      assert.ok(inline instanceof cls, `${job.name}: the inline parse throws a ${cls.name}`);
      const crossed = await rejection(host.parse(job, source(body), args as never[]));
      assert.ok(crossed instanceof cls, `${job.name}: ${crossed}`);
      const fields = (e: unknown) => {
        const { message, kind, upstream, url, status, code, recoveryHint } = e as Record<string, unknown>;
        return { message, kind, upstream, url, status, code, recoveryHint };
      };
      assert.deepEqual(fields(crossed), fields(inline));
    }
  });
});

Deno.test("a body that is not JSON at all is the parser's own UpstreamError of kind parse, on the worker too", async () => {
  await withHost({ minBytes: 0 }, async (host) => {
    const error = await rejection(host.parse(workJob, source("<html>busy</html>"), []));
    assert.ok(error instanceof UpstreamError);
    assert.equal(error.kind, "parse");
    assert.equal(error.upstream, "openalex");
    assert.match(error.message, /^OpenAlex sent a body that is not JSON \("<html>busy<\/html>"\)/);
  });
});

Deno.test("an error the parser throws unexpectedly (a SyntaxError, a bug) crosses back as an UpstreamError of kind parse", () => {
  const sent = sendError(new SyntaxError("Unexpected token '<', \"<html>busy\" is not valid JSON"));
  const error = reviveError(sent, workJob as unknown as ParseJob<never[], unknown>, URL_SHOWN);
  assert.ok(error instanceof UpstreamError);
  assert.equal(error.kind, "parse");
  assert.equal(error.upstream, "openalex");
  assert.match(error.message, /could not be parsed \(SyntaxError: /);
});

Deno.test("a worker that dies mid-parse fails that body with an UpstreamError; the next body gets a fresh worker", async () => {
  const workers = spawnSequence(() => testWorker("crashing"));
  const body = fixture("ncbi/gene/biocommons__gene_4747_2014.xml");
  await withHost({ minBytes: 0, spawn: workers.spawn }, async (host) => {
    const error = await rejection(host.parse(geneRecordJob, source(body), ["4747"]));
    assert.ok(error instanceof UpstreamError, String(error));
    assert.equal(error.kind, "parse");
    assert.equal(error.upstream, "ncbi-eutils");
    assert.match(error.message, /the parse worker failed: .*worker died mid-parse/);
    const record = await host.parse(geneRecordJob, source(body), ["4747"]);
    assert.equal(record?.symbol, "NEFL");
    assert.equal(workers.starts(), 2);
  });
});

Deno.test("cancelling drops the job: a running one ends its worker, a queued one is never sent", async () => {
  const workers = spawnSequence(() => testWorker("silent"));
  const body = fixture("ncbi/gene/biocommons__gene_4747_2014.xml");
  await withHost({ minBytes: 0, spawn: workers.spawn }, async (host) => {
    const running = new AbortController();
    const queued = new AbortController();
    const first = host.parse(geneRecordJob, source(body), ["4747"], running.signal);
    const second = host.parse(geneRecordJob, source(body), ["4747"], queued.signal);
    const third = host.parse(geneRecordJob, source(body), ["4747"]);
    while (host.queued > 2) await new Promise((resolve) => setTimeout(resolve, 10)); // the first is sent
    queued.abort(new Error("queued call cancelled"));
    running.abort(new Error("running call cancelled"));
    assert.equal((await rejection(first) as Error).message, "running call cancelled");
    assert.equal((await rejection(second) as Error).message, "queued call cancelled");
    assert.equal((await third)?.symbol, "NEFL");
    assert.equal(workers.starts(), 2, "the silent worker was ended and a fresh one parsed the third body");
    const early = new AbortController();
    early.abort(new Error("cancelled before"));
    assert.equal(
      (await rejection(host.parse(geneRecordJob, source(body), ["4747"], early.signal)) as Error).message,
      "cancelled before",
    );
  });
});

Deno.test("where no worker can start, large bodies parse inline, with one warning", async (t) => {
  const body = fixture("ncbi/gene/biocommons__gene_4747_2014.xml");
  const inline = geneRecordJob.parse(body, URL_SHOWN, "4747");
  const spawns: [string, () => Worker][] = [
    ["a runtime without workers", () => {
      throw new Error("Worker is not defined");
    }],
    [
      "a worker whose module cannot be loaded",
      () => new Worker(new URL("./no_such_worker.ts", import.meta.url), { type: "module" }),
    ],
  ];
  for (const [what, spawn] of spawns) {
    await t.step(what, async () => {
      const log = memoryLogger();
      await withHost({ minBytes: 0, spawn, log }, async (host) => {
        assert.deepEqual(await host.parse(geneRecordJob, source(body), ["4747"]), inline);
        assert.deepEqual(await host.parse(geneRecordJob, source(body), ["4747"]), inline);
        assert.equal(host.inlineOnly, true);
        const warnings = log.records.filter((r) => r.level === "warning");
        assert.equal(warnings.length, 1);
        assert.match(warnings[0].msg, /parsed on the main thread/);
      });
    });
  }
});

Deno.test("a body below the threshold is parsed inline, without starting a worker", async () => {
  const workers = spawnSequence();
  await withHost({ spawn: workers.spawn }, async (host) => {
    const body = fixture("ncbi/gene/biocommons__gene_4747_2014.xml");
    assert.equal((await host.parse(geneRecordJob, source(body), ["4747"]))?.symbol, "NEFL");
    assert.equal(workers.starts(), 0);
  });
});

Deno.test("a small body whose parser throws a plain error inline is an UpstreamError of kind parse, not a bug", async () => {
  const workers = spawnSequence();
  const shapeless: ParseJob<[], number> = {
    name: "shapeless",
    upstream: "openalex",
    parse: (text) => (JSON.parse(text) as { results: number[] }).results.length,
  };
  await withHost({ spawn: workers.spawn }, async (host) => {
    for (const body of ["<html>busy</html>", "null"]) {
      await assert.rejects(host.parse(shapeless, source(body), []), (error: unknown) => {
        assert.ok(error instanceof UpstreamError, String(error));
        assert.equal(error.kind, "parse");
        assert.equal(error.upstream, "openalex");
        assert.match(error.message, /SyntaxError|TypeError/);
        return true;
      });
    }
    // The parser's own errors pass through unchanged.
    const own: ParseJob<[], never> = {
      name: "own",
      upstream: "arxiv",
      parse: () => {
        throw new ToolError("INVALID_INPUT", "bad query", "fix it");
      },
    };
    await assert.rejects(host.parse(own, source("x"), []), ToolError);
    assert.equal(workers.starts(), 0);
  });
});
