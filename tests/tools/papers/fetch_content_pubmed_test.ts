import assert from "node:assert/strict";
import { errorOf, papersClient, structured } from "./mock.ts";

interface Content {
  source: string;
  id: string;
  doi?: string;
  title: string | null;
  authors: string[];
  date: string | null;
  venue?: string;
  url: string;
  content_format: string;
  content_url: string;
  text: string;
  total_chars: number;
  next_offset?: number;
  warnings?: { code: string; message: string }[];
  tried?: { what: string; request_url: string; outcome: string }[];
}

const paths = (urls: URL[]) =>
  urls.map((u) => `${u.pathname}?${u.searchParams.get("db") ?? u.searchParams.get("idtype")}`);

Deno.test("fetch_content source=pubmed: a PMCID is read from PubMed Central as sectioned full text", async () => {
  const { call, close, fetch } = await papersClient({ env: { SCIENCE_MCP_MAX_OUTPUT_CHARS: "200000" } });
  try {
    const result = await call("fetch_content", { source: "pubmed", id: "pmc3299399", max_chars: 100_000 });
    const out = structured<Content>(result);
    assert.deepEqual(
      [out.id, out.doi, out.content_format],
      ["PMC3299399", "10.3389/fpsyt.2012.00018", "jats"],
    );
    assert.equal(out.title, "The Effects of Psychosis Risk Variants on Brain Connectivity: A Review");
    assert.deepEqual(out.authors, ["Omar Mothersill", "Sinead Kelly", "Emma Jane Rose", "Gary Donohoe"]);
    assert.equal(out.venue, "Frontiers in Psychiatry");
    assert.equal(out.url, "https://pmc.ncbi.nlm.nih.gov/articles/PMC3299399/");
    assert.match(
      out.text,
      /^# The Effects of Psychosis Risk Variants on Brain Connectivity: A Review\n\n## Abstract\n\nIn light/,
    );
    const headings = [...out.text.matchAll(/^## (.+)$/gm)].map((m) => m[1]);
    assert.deepEqual(headings, [
      "Abstract",
      "Introduction",
      "Methods",
      "Results",
      "Discussion",
      "Conflict of Interest Statement",
      "Acknowledgments",
      "References",
    ]);
    assert.match(out.text, /\n76\. [^\n]+$/, "76 numbered references close the text");
    assert.equal(out.warnings, undefined);
    const efetch = fetch.requests.at(-1)!.url;
    assert.deepEqual([efetch.pathname, efetch.searchParams.get("db"), efetch.searchParams.get("id")], [
      "/ncbi/efetch.fcgi",
      "pmc",
      "3299399",
    ]);
    assert.equal(
      fetch.requests.filter((r) => r.url.pathname.startsWith("/idconv")).length,
      0,
      "a PMCID needs no conversion",
    );
    assert.match(result.content![0].text!, /^content_format: jats$/m);
  } finally {
    await close();
  }
});

Deno.test("fetch_content source=pubmed: PMIDs and DOIs reach the PMC copy through the ID converter", async () => {
  const { call, close, fetch } = await papersClient();
  try {
    const cases: [string, string, string[]][] = [
      // Europe PMC is asked for the record (retraction status) beside PMC's path.
      ["22416237", "22416237", ["/europepmc/search?null", "/idconv/?pmid", "/ncbi/efetch.fcgi?pmc"]],
      // The same PMC article again: EFetch is answered from the response cache.
      ["https://doi.org/10.3389/fpsyt.2012.00018", "10.3389/fpsyt.2012.00018", [
        "/europepmc/search?null",
        "/idconv/?doi",
      ]],
    ];
    for (const [id, sentId, expected] of cases) {
      const before = fetch.requests.length;
      const out = structured<Content>(await call("fetch_content", { source: "pubmed", id }));
      assert.equal(out.content_format, "jats");
      assert.equal(out.id, "PMC3299399");
      const sent = fetch.requests.slice(before).map((r) => r.url);
      assert.deepEqual(paths(sent), expected);
      assert.equal(sent.find((u) => u.pathname.startsWith("/idconv"))!.searchParams.get("ids"), sentId);
    }
  } finally {
    await close();
  }
});

Deno.test("fetch_content source=pubmed: the abstract, with the reason, when PMC has no full text", async (t) => {
  const { call, close, fetch } = await papersClient();
  try {
    await t.step("PMC holds the article but withholds its text", async () => {
      const before = fetch.requests.length;
      const out = structured<Content>(await call("fetch_content", { source: "pubmed", id: "PMID:27797938" }));
      assert.deepEqual([out.id, out.content_format], ["PMID:27797938", "abstract"]);
      assert.match(out.title!, /^Leucocyte telomere length, genetic variants at the TERT gene region/);
      assert.equal(out.url, "https://pubmed.ncbi.nlm.nih.gov/27797938/");
      assert.match(out.text, /^# Leucocyte telomere length.*\n\n## Abstract\n\n\S/);
      assert.equal(out.warnings?.[0].code, "AbstractOnly");
      // Each source and its outcome is listed once, in tried; the warning does not repeat them (#34).
      assert.match(
        out.tried!.map((t) => t.outcome).join("; "),
        /PMC holds PMC5442267 but the publisher does not allow its full text/,
      );
      assert.doesNotMatch(out.warnings![0].message, /PMC holds/);
      assert.match(out.warnings![0].message, /https:\/\/doi\.org\/10\.1136\/gutjnl-2016-312510/);
      // Tier by tier: PMC, Europe PMC's XML, OpenAlex's open-access copies, then the PubMed abstract.
      assert.deepEqual(paths(fetch.requests.slice(before).map((r) => r.url)), [
        "/europepmc/search?null",
        "/idconv/?pmid",
        "/ncbi/efetch.fcgi?pmc",
        "/europepmc/PMC5442267/fullTextXML?null",
        "/openalex/works/doi:10.1136/gutjnl-2016-312510?null",
        "/ncbi/efetch.fcgi?pubmed",
      ]);
    });
    await t.step("the article is not in PMC at all", async () => {
      const before = fetch.requests.length;
      const out = structured<Content>(await call("fetch_content", { source: "pubmed", id: "36987902" }));
      assert.equal(out.content_format, "abstract");
      assert.match(
        out.tried!.map((t) => t.outcome).join("; "),
        /the PMC ID Converter answered: Identifier not found in PMC/,
      );
      assert.deepEqual(paths(fetch.requests.slice(before).map((r) => r.url)), [
        "/europepmc/search?null",
        "/idconv/?pmid",
        "/openalex/works/pmid:36987902?null",
        "/ncbi/efetch.fcgi?pubmed",
      ]);
    });
    await t.step("a DOI outside PMC finds its PMID through PubMed", async () => {
      const before = fetch.requests.length;
      const out = structured<Content>(
        await call("fetch_content", { source: "pubmed", id: "doi:10.1016/j.celrep.2022.110870" }),
      );
      assert.deepEqual([out.id, out.content_format], ["PMID:35649368", "abstract"]);
      const search = fetch.requests.slice(before).find((r) => r.url.pathname === "/ncbi/esearch.fcgi")!;
      assert.equal(search.url.searchParams.get("term"), '"10.1016/j.celrep.2022.110870"[doi]');
    });
    await t.step("an id neither PMC nor PubMed knows is ENTITY_NOT_FOUND", async () => {
      const missing = errorOf(await call("fetch_content", { source: "pubmed", id: "10.9999/nothing.here" }));
      assert.equal(missing.code, "ENTITY_NOT_FOUND");
      assert.match(missing.message, /DOI 10\.9999\/nothing\.here.*Identifier not found in PMC/);
      const noRecord = errorOf(await call("fetch_content", { source: "pubmed", id: "99999999" }));
      assert.equal(noRecord.code, "ENTITY_NOT_FOUND");
    });
  } finally {
    await close();
  }
});

Deno.test("fetch_content source=pubmed pages the full text from its cache", async () => {
  const { call, close, fetch } = await papersClient();
  try {
    const first = structured<Content>(
      await call("fetch_content", { source: "pubmed", id: "PMC3299399", max_chars: 5000 }),
    );
    assert.ok(first.next_offset! > 4000 && first.next_offset! <= 5000);
    const before = fetch.requests.length;
    const second = structured<Content>(
      await call("fetch_content", { source: "pubmed", id: "PMC3299399", offset: first.next_offset, max_chars: 5000 }),
    );
    assert.equal(fetch.requests.length, before, "the second page comes from the text cache");
    assert.equal(second.total_chars, first.total_chars);
  } finally {
    await close();
  }
});

Deno.test("fetch_content refuses ids of the wrong kind and points to the right source", async () => {
  const { call, close, fetch } = await papersClient();
  try {
    const arxiv = errorOf(await call("fetch_content", { source: "pubmed", id: "2104.12255" }));
    assert.equal(arxiv.code, "INVALID_INPUT");
    assert.match(arxiv.recovery_hint, /source=arxiv/);
    const pmid = errorOf(await call("fetch_content", { source: "arxiv", id: "22416237" }));
    assert.match(pmid.recovery_hint, /source=pubmed/);
    const doi = errorOf(await call("fetch_content", { source: "openalex", id: "10.3389/fpsyt.2012.00018" }));
    assert.match(doi.recovery_hint, /source=pubmed/);
    assert.equal(fetch.requests.length, 0);
  } finally {
    await close();
  }
});
