/**
 * save_paper against the mock upstream: the arXiv and Europe PMC tiers, the sidecar, a paper saved twice,
 * and every refusal (not a PDF, not a readable PDF, no open copy, a host the permission set does not reach)
 * leaving the library untouched.
 */
import assert from "node:assert/strict";
import { provide } from "../../../src/core/shared_key.ts";
import { PAPERS_DEPS } from "../../../src/tools/papers/deps.ts";
import { type CallResult, type HarnessOptions, withTools } from "../../helpers/tool_harness.ts";
import { fixtureBytes, type Route } from "../../helpers/runtime.ts";
import { publicDns } from "../papers/mock.ts";

const data = (r: CallResult) => r.structuredContent as Record<string, unknown>;
const text = (r: CallResult) => r.content.map((c) => c.text ?? "").join("");
const errorOf = (r: CallResult) => data(r).error as { code: string; message: string; recovery_hint: string };

async function withLibrary(
  options: HarnessOptions,
  body: (
    call: (tool: string, args: Record<string, unknown>) => Promise<CallResult>,
    dir: string,
    requests: URL[],
  ) => Promise<void>,
): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "library-test-" });
  try {
    await withTools({
      env: { SCIENCE_MCP_TOOLSETS: "papers,pdf", LIBRARY_DIR: dir },
      driveClock: true,
      provide: [provide(PAPERS_DEPS, { resolveDns: publicDns })],
      ...options,
    }, async (h) => await body((tool, args) => h.call(tool, args), dir, h.requests.map((r) => r.url)));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

const files = (dir: string) => [...Deno.readDirSync(dir)].map((e) => e.name).sort();
const arxivPdf = (req: { url: URL }) => /^(\/arxiv-web)?\/pdf\//.test(req.url.pathname);

Deno.test("save_paper keeps an arXiv PDF with its sidecar, and a second save of the paper fetches nothing", async () => {
  let pdfRequests = 0;
  const count: Route = (req) => void (arxivPdf(req) && pdfRequests++);
  await withLibrary({ routes: [count] }, async (call, dir) => {
    const first = await call("save_paper", { id: "1111.2011v2" });
    assert.equal(first.isError, undefined, text(first));
    assert.equal(data(first).name, "arxiv-1111.2011");
    assert.equal(data(first).saved, true);
    assert.deepEqual(files(dir), ["arxiv-1111.2011.json", "arxiv-1111.2011.pdf"]);
    const sidecar = JSON.parse(await Deno.readTextFile(`${dir}/arxiv-1111.2011.json`));
    assert.deepEqual(sidecar.ids, { arxiv: "1111.2011v2", doi: "10.1103/PhysRevB.85.115117" });
    assert.match(sidecar.title, /^Quantum Criticality for Extended Nodes/);
    assert.deepEqual(sidecar.authors, ["James M. Murray", "Adrian Del Maestro", "Zlatko Tesanovic"]);
    assert.equal(sidecar.year, 2011);
    assert.equal(sidecar.venue, "Phys. Rev. B 85, 115117 (2012)");
    assert.match(sidecar.source_url, /\/pdf\/1111\.2011v2$/);
    assert.equal(sidecar.licence, null);
    assert.equal(sidecar.retrieved, "2026-03-01");
    assert.equal(sidecar.pages, 8);
    assert.equal(pdfRequests, 1);

    for (const again of ["arXiv:1111.2011", "10.1103/PhysRevB.85.115117"]) {
      const second = await call("save_paper", { id: again });
      assert.equal(second.isError, undefined, text(second));
      assert.equal(data(second).saved, false, again);
      assert.equal(data(second).name, "arxiv-1111.2011");
      assert.match(text(second), /Already in the library \(not fetched again\)/);
    }
    assert.equal(pdfRequests, 1, "the PDF was downloaded once");

    const cited = await call("export_citations", { ids: ["arxiv-1111.2011"], styles: ["bibtex"] });
    assert.equal(cited.isError, undefined, text(cited));
    assert.match(text(cited), /Quantum Criticality for Extended Nodes/);
  });
});

Deno.test("save_paper refuses a file that is not a PDF and keeps nothing", async () => {
  const html: Route = (req) =>
    arxivPdf(req)
      ? new Response("<html><body>PDF not ready</body></html>", { headers: { "content-type": "text/html" } })
      : undefined;
  await withLibrary({ routes: [html] }, async (call, dir) => {
    const result = await call("save_paper", { id: "1111.2011v2" });
    assert.equal(result.isError, true);
    assert.equal(errorOf(result).code, "NOT_AVAILABLE");
    assert.match(
      errorOf(result).message,
      /No open copy of 1111\.2011v2.*arXiv PDF .*not a PDF \(text\/html\): not kept/,
    );
    assert.deepEqual(files(dir), []);
  });
});

Deno.test("save_paper refuses a PDF the contained extractor cannot open and keeps nothing", async () => {
  const broken: Route = (req) =>
    arxivPdf(req)
      ? new Response("%PDF-1.7\n1 0 obj << /Type /Catalog >> garbage", {
        headers: { "content-type": "application/pdf" },
      })
      : undefined;
  await withLibrary({ routes: [broken] }, async (call, dir) => {
    const result = await call("save_paper", { id: "1111.2011v2" });
    assert.equal(errorOf(result).code, "NOT_AVAILABLE");
    assert.match(errorOf(result).message, /not a readable PDF \(corrupt/);
    assert.deepEqual(files(dir), []);
  });
});

Deno.test("save_paper takes Europe PMC's PDF of an open-access PMID, with the record's licence and ids", async () => {
  const epmc: Route = (req) =>
    req.url.host === "europepmc.org" && req.url.pathname === "/articles/PMC12120539"
      ? new Response(fixtureBytes("pdf/scienceparse__map-reduce.pdf").slice(), {
        headers: { "content-type": "application/pdf" },
      })
      : undefined;
  await withLibrary({ routes: [epmc] }, async (call, dir) => {
    const result = await call("save_paper", { id: "40437959" });
    assert.equal(result.isError, undefined, text(result));
    assert.equal(data(result).name, "pmid-40437959");
    assert.equal(data(result).licence, "cc by-nc-nd");
    assert.equal(data(result).source_url, "https://europepmc.org/articles/PMC12120539?pdf=render");
    assert.deepEqual(data(result).ids, { pmid: "40437959", pmcid: "PMC12120539", doi: "10.1002/hpja.70059" });
    assert.deepEqual(files(dir), ["pmid-40437959.json", "pmid-40437959.pdf"]);
  });
});

Deno.test("save_paper answers 'no open copy' with every tier tried when no record links a PDF", async () => {
  await withLibrary({}, async (call, dir) => {
    const result = await call("save_paper", { id: "39709209" });
    assert.equal(result.isError, true, text(result));
    assert.equal(errorOf(result).code, "NOT_AVAILABLE");
    assert.match(errorOf(result).message, /^No open copy of 39709209 could be saved\. Tiers tried: /);
    assert.match(
      errorOf(result).message,
      /Europe PMC PDF \(https:\/\/europepmc\.org\/article\/MED\/39709209\): no open PDF link/,
    );
    assert.match(errorOf(result).message, /OpenAlex/);
    assert.deepEqual(files(dir), []);
  });
});

Deno.test("a copy on a host the permission set does not reach is named, with the open set as the fix, in one line", async () => {
  // What Deno answers a DNS lookup under a confined set: the resolver is not among its hosts.
  const denied = () => Promise.reject(new Deno.errors.NotCapable('Requires net access to "10.255.255.53:53"'));
  await withLibrary({ provide: [provide(PAPERS_DEPS, { resolveDns: denied })] }, async (call, dir) => {
    // The PLOS work's only open PDF is on the publisher's host (the mock serves it under /publisher).
    const result = await call("save_paper", { id: "W1982728624" });
    assert.equal(errorOf(result).code, "NOT_AVAILABLE");
    assert.match(errorOf(result).message, /publisher PDF .*refused: no network permission for /);
    assert.match(
      errorOf(result).recovery_hint,
      /^A copy is on a publisher's host.*deno task start:open\) to save it\.$/,
    );
    assert.equal(errorOf(result).recovery_hint.split("\n").length, 1);
    assert.deepEqual(files(dir), []);
  });
});

Deno.test("Europe PMC's PDF links need no DNS lookup: they go through the europepmc upstream the default sets grant", async () => {
  const denied = () => Promise.reject(new Deno.errors.NotCapable('Requires net access to "10.255.255.53:53"'));
  const epmc: Route = (req) =>
    req.url.host === "europepmc.org"
      ? new Response(fixtureBytes("pdf/scienceparse__map-reduce.pdf").slice(), {
        headers: { "content-type": "application/pdf" },
      })
      : undefined;
  await withLibrary({ routes: [epmc], provide: [provide(PAPERS_DEPS, { resolveDns: denied })] }, async (call, dir) => {
    const result = await call("save_paper", { id: "PMC12120539" });
    assert.equal(result.isError, undefined, text(result));
    assert.equal(data(result).name, "pmcid-PMC12120539");
    assert.deepEqual(files(dir), ["pmcid-PMC12120539.json", "pmcid-PMC12120539.pdf"]);
  });
});

Deno.test("save_paper refuses what is no id before any request", async () => {
  await withLibrary({}, async (call) => {
    const bad = await call("save_paper", { id: "../../etc/passwd" });
    assert.equal(errorOf(bad).code, "INVALID_INPUT");
  });
});
