/** fetch_content beyond one source: Europe PMC, any DOI tier by tier, retraction, outline and sections. */
import assert from "node:assert/strict";
import type { PdfExtractor, PdfText } from "../../../src/sources/pdf/types.ts";
import { pathSafe } from "../../../src/tools/papers/content/article_content.ts";
import { fixture, fixtureBytes, type Route } from "../../helpers/runtime.ts";
import { type CallResult, errorOf, papersClient, structured } from "./mock.ts";

interface Content {
  id: string;
  title?: string | null;
  authors?: string[];
  abstract?: string;
  doi?: string;
  venue?: string;
  url?: string;
  retracted?: boolean;
  retraction_notice?: string;
  content_format: string;
  content_url: string;
  outline?: { n: number; level: number; heading: string; offset: number; chars: number }[];
  section?: { n: number; heading: string; offset: number; end: number };
  text: string;
  offset: number;
  total_chars: number;
  next_offset?: number;
  tried?: { what: string; url: string; outcome: string }[];
  warnings?: { code: string; message: string }[];
}

const text = (r: CallResult) => r.content?.[0]?.text ?? "";

Deno.test("fetch_content source=europepmc reads Europe PMC's open-access XML, with an outline", async () => {
  const { call, close, fetch } = await papersClient();
  try {
    const result = await call("fetch_content", { source: "europepmc", id: "PMC3258128", max_chars: 5000 });
    const out = structured<Content>(result);
    assert.deepEqual([out.id, out.content_format, out.doi], ["PMC3258128", "jats", "10.1093/nar/gkr715"]);
    assert.equal(out.content_url, "http://mock.test/europepmc/PMC3258128/fullTextXML");
    assert.equal(out.url, "https://europepmc.org/article/PMC/PMC3258128");
    assert.equal(out.venue, "Nucleic Acids Research");
    assert.ok(out.outline && out.outline.length >= 3);
    assert.equal(out.outline[0].heading, "Abstract");
    assert.ok(out.outline.every((e, i) => e.chars > 0 && (i === 0 || e.offset > out.outline![i - 1].offset)));
    assert.ok(
      fetch.requests.some((r) => r.url.pathname === "/ncbi/efetch.fcgi"),
      "PubMed Central was tried first",
    );
    assert.ok(out.tried?.some((t) => t.what === "PubMed Central"), JSON.stringify(out.tried));
    assert.match(text(result), /## outline \(pass n or heading as section\)\n- 1\. Abstract \(level 2, offset/);
    assert.doesNotMatch(text(result), /## abstract\n/, "the abstract is in the text already: not shown twice");
  } finally {
    await close();
  }
});

Deno.test("fetch_content: metadata and abstract on the first page only, text only after", async () => {
  const { call, close } = await papersClient();
  try {
    const first = await call("fetch_content", { source: "pubmed", id: "PMC3299399", max_chars: 3000 });
    const one = structured<Content>(first);
    assert.ok(one.title && one.authors && one.abstract && one.outline);
    const later = await call("fetch_content", { source: "pubmed", id: "PMC3299399", offset: one.next_offset });
    const two = structured<Content>(later);
    assert.deepEqual(
      [two.title, two.authors, two.abstract, two.outline, two.warnings],
      [undefined, undefined, undefined, undefined, undefined],
    );
    assert.equal(two.id, "PMC3299399");
    assert.match(text(later), /^# PMC3299399 \(continued\)\n⟦\nid: PMC3299399\n/);
    assert.doesNotMatch(text(later), /The Effects of Psychosis Risk Variants on Brain Connectivity: A Review/);
    assert.ok(text(first).length - one.text.length > text(later).length - two.text.length);
  } finally {
    await close();
  }
});

Deno.test("fetch_content section: one section by name or number, paged within it", async () => {
  const { call, close } = await papersClient();
  try {
    const first = structured<Content>(await call("fetch_content", { source: "pubmed", id: "PMC3299399" }));
    const methods = first.outline!.find((e) => e.heading === "Methods")!;
    const out = structured<Content>(
      await call("fetch_content", { source: "pubmed", id: "PMC3299399", section: "methods", max_chars: 1000 }),
    );
    assert.deepEqual(out.section, {
      n: methods.n,
      heading: "Methods",
      offset: methods.offset,
      end: methods.offset + methods.chars,
    });
    assert.ok(out.text.startsWith("## Methods"));
    assert.equal(out.offset, methods.offset);
    let all = out.text;
    for (let next = out.next_offset; next !== undefined;) {
      const page = structured<Content>(
        await call("fetch_content", { source: "pubmed", id: "PMC3299399", section: String(methods.n), offset: next }),
      );
      all += page.text;
      next = page.next_offset;
    }
    assert.equal(all.length, methods.chars, "following next_offset reads exactly the section");
    assert.ok(!all.includes("## Results"));
    const error = errorOf(await call("fetch_content", { source: "pubmed", id: "PMC3299399", section: "Nowhere" }));
    assert.equal(error.code, "INVALID_INPUT");
    assert.match(error.recovery_hint, /Introduction/);
  } finally {
    await close();
  }
});

Deno.test("fetch_content any DOI: PMC, Europe PMC, then the OpenAlex open-access PDF", async () => {
  const extractor: PdfExtractor = {
    extract: (): Promise<PdfText> => Promise.resolve({ pageCount: 1, pages: ["The state of OA: full text"] }),
    close: () => Promise.resolve(),
  };
  const { call, close, fetch } = await papersClient({
    seams: { extractor },
    routes: [
      (req) =>
        req.url.pathname === "/publisher/peerj.com/articles/4375.pdf"
          ? new Response(fixtureBytes("arxiv/pdf/arxivpy__1111.2011v2.pdf").slice(), {
            headers: { "content-type": "application/pdf" },
          })
          : undefined,
    ],
  });
  try {
    const out = structured<Content>(await call("fetch_content", { source: "pubmed", id: "10.7717/peerj.4375" }));
    assert.deepEqual([out.id, out.content_format, out.text], ["W2741809807", "pdf", "The state of OA: full text"]);
    assert.deepEqual(out.tried?.map((t) => t.what), ["Europe PMC", "PubMed Central"]);
    assert.match(out.tried![1].outcome, /the PMC ID Converter answered/);
    const asked = fetch.requests.map((r) => r.url.pathname);
    assert.ok(asked.includes("/openalex/works/doi:10.7717/peerj.4375"));
    assert.ok(
      asked.every((p) => !p.startsWith("/publisher/") || p === "/publisher/peerj.com/articles/4375.pdf"),
      "only the location OpenAlex records is fetched",
    );
  } finally {
    await close();
  }
});

Deno.test("fetch_content any DOI with no open copy anywhere: the abstract and every tier tried", async () => {
  const { call, close } = await papersClient();
  try {
    const result = await call("fetch_content", { source: "europepmc", id: "doi:10.7717/peerj.4375" });
    const out = structured<Content>(result);
    assert.equal(out.content_format, "abstract");
    assert.equal(out.id, "W2741809807");
    assert.deepEqual(out.tried?.map((t) => t.what), [
      "Europe PMC",
      "PubMed Central",
      "publisher PDF",
      "publisher page",
      "publisher PDF",
      "publisher page",
      "publisher page",
    ]);
    const warning = out.warnings?.find((w) => w.code === "AbstractOnly");
    assert.match(warning?.message ?? "", /this is the OpenAlex record/);
    // The text names each source and its outcome once, without the request URLs (those stay in tried, #34).
    assert.match(text(result), /## sources tried\n- Europe PMC: no record for this id\n/);
    assert.doesNotMatch(text(result), /https?:\/\/\S+(search\?query|efetch\.fcgi|fullTextXML)/);
  } finally {
    await close();
  }
});

Deno.test("fetch_content says RETRACTED when the record does, with the notice", async () => {
  const { call, close } = await papersClient();
  try {
    const result = await call("fetch_content", { source: "europepmc", id: "MED:39466770" });
    const out = structured<Content>(result);
    assert.equal(out.retracted, true);
    assert.match(out.retraction_notice ?? "", /^MED:41926417 PLoS One/);
    assert.equal(out.content_format, "abstract");
    assert.match(out.abstract ?? "", /^Over the past decade, deep learning/);
    assert.match(
      text(result),
      /^⟦\n# RETRACTED: An inherently[^\n]*\nRETRACTED: the record says this paper was retracted/,
    );
    const later = await call("fetch_content", { source: "europepmc", id: "MED:39466770", offset: 100 });
    assert.equal(structured<Content>(later).retracted, true, "every page carries the flag");
  } finally {
    await close();
  }
});

Deno.test("fetch_content source=europepmc: a preprint without open text falls back to its record", async () => {
  const { call, close, fetch } = await papersClient();
  try {
    const out = structured<Content>(await call("fetch_content", { source: "europepmc", id: "PPR:PPR1036674" }));
    assert.deepEqual([out.id, out.content_format, out.venue], ["PPR:PPR1036674", "abstract", "medRxiv"]);
    assert.match(out.text, /\(the Europe PMC record has no abstract\.\)/);
    assert.ok(fetch.requests.some((r) => r.url.pathname === "/europepmc/PPR1036674/fullTextXML"));
    assert.ok(fetch.requests.some((r) => r.url.pathname === "/openalex/works/doi:10.1101/2025.06.13.25329599"));
    const bad = errorOf(await call("fetch_content", { source: "europepmc", id: "not an id" }));
    assert.equal(bad.code, "INVALID_INPUT");
  } finally {
    await close();
  }
});

Deno.test("fetch_content never fetches a URL the caller gives: only ids are taken", async () => {
  const { call, close, fetch } = await papersClient();
  try {
    for (const source of ["pubmed", "europepmc", "openalex", "arxiv"]) {
      for (const id of ["http://169.254.169.254/latest/meta-data", "https://example.org/paper.pdf"]) {
        assert.equal(errorOf(await call("fetch_content", { source, id })).code, "INVALID_INPUT", `${source} ${id}`);
      }
    }
    assert.equal(fetch.requests.length, 0);
  } finally {
    await close();
  }
});

Deno.test("a DOI cannot steer the OpenAlex lookup to another path", () => {
  assert.equal(pathSafe("10.7717/peerj.4375"), "10.7717/peerj.4375");
  assert.equal(pathSafe("10.1/../../authors"), "10.1/%2E%2E/%2E%2E/authors");
  assert.equal(pathSafe("10.1/x?y#z"), "10.1/x%3Fy%23z");
});

Deno.test("fetch_content: a source that is down is listed, skipped, and the fallback is not cached", async () => {
  const down: Route = (req) =>
    req.url.pathname.startsWith("/europepmc/") || req.url.pathname.startsWith("/openalex/")
      ? new Response("This API is temporarily unavailable due to maintenance.", { status: 503 })
      : undefined;
  const { call, close, fetch } = await papersClient({ routes: [down] });
  try {
    const out = structured<Content>(await call("fetch_content", { source: "pubmed", id: "36987902" }));
    assert.equal(out.content_format, "abstract");
    const europe = out.tried?.find((t) => t.what === "Europe PMC");
    assert.equal(europe?.outcome, "server error (HTTP 503)");
    assert.match(out.warnings![0].message, /retry later for the full text/);
    const before = fetch.requests.length;
    await call("fetch_content", { source: "pubmed", id: "36987902" });
    assert.ok(fetch.requests.length > before, "a fallback made while a source was down is asked again");
    const unknown = errorOf(await call("fetch_content", { source: "europepmc", id: "PPR:PPR999" }));
    assert.equal(unknown.code, "UPSTREAM_ERROR", "not ENTITY_NOT_FOUND while the sources are down");
  } finally {
    await close();
  }
});

Deno.test("fetch_content OpenAlex: a work without an open copy is read from PMC through its DOI", async () => {
  // The recorded closed work (no open-access location), given the DOI of an article PMC holds.
  const work = fixture("openalex/commonmeta__work_dataset_pdb4hhb.json")
    .replaceAll("10.2210/pdb4hhb/pdb", "10.3389/fpsyt.2012.00018");
  const { call, close } = await papersClient({
    routes: [
      (req) =>
        req.url.pathname === "/openalex/works/W6945048743"
          ? new Response(work, { headers: { "content-type": "application/json" } })
          : undefined,
    ],
  });
  try {
    const out = structured<Content>(await call("fetch_content", { source: "openalex", id: "W6945048743" }));
    assert.deepEqual([out.id, out.content_format], ["PMC3299399", "jats"]);
    assert.match(out.tried?.[0].outcome ?? "", /OpenAlex lists no open-access copy/);
  } finally {
    await close();
  }
});

Deno.test("full text with control and direction characters: stripped before offsets, so pages join up to the whole", async () => {
  const xml = fixture("europepmc/pyeuropepmc__PMC3258128_fullTextXML.xml").replace(
    /<p>([^<]{40,})/g,
    (_, t) => `<p>${t.slice(0, 20)}&#x1B;[31m\u202E&#x1b;]0;x&#7;\u0085${t.slice(20)}`,
  );
  const routes: Route[] = [
    (req) => req.url.pathname.endsWith("/PMC3258128/fullTextXML") ? new Response(xml) : undefined,
  ];
  const { call, close } = await papersClient({ routes });
  try {
    const args = { source: "europepmc", id: "PMC3258128" };
    let joined = "";
    let total: number | undefined;
    for (let offset: number | undefined = 0; offset !== undefined;) {
      const page: Content = structured<Content>(await call("fetch_content", { ...args, offset, max_chars: 4000 }));
      assert.equal(page.content_format, "jats");
      assert.equal(page.offset, offset, "each page starts where the last one's next_offset said");
      total ??= page.total_chars;
      assert.equal(page.total_chars, total);
      joined += page.text;
      offset = page.next_offset;
    }
    assert.equal(joined.length, total, "the pages join up to total_chars: nothing lost or repeated");
    assert.ok(joined.includes("[31m"), "the poisoned paragraphs are in the text");
    // deno-lint-ignore no-control-regex -- what must be gone
    assert.ok(!/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/.test(joined));
  } finally {
    await close();
  }
});
