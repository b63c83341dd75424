import assert from "node:assert/strict";
import { EXIT_OK, EXIT_TOOL_ERROR } from "../../../src/cli/main.ts";
import type { Route } from "../../helpers/runtime.ts";
import { withTools } from "../../helpers/tool_harness.ts";
import { cliCall } from "./cli_io.ts";

const ENV = { SCIENCE_MCP_TOOLSETS: "papers", OPENALEX_API_KEY: "test-key" };

/** Real (in the recorded OpenAlex list), misspelled, invented, retracted (DOI at Crossref, PMID via ECitMatch). */
const MIXED = [
  "Bailey, R. W., & Schmied, J. (1993). English in Africa: An introduction. Language.",
  "Baily RW, Schmied J. Englsh in Afrika: an introductoin. Language. 1993.",
  "Smith J, Doe A. Quantum entanglement of teapots in microgravity. Nature. 2021;590:12-15.",
  "Wakefield AJ, Murch SH, Anthony A, et al. Ileal-lymphoid-nodular hyperplasia, non-specific colitis, and " +
  "pervasive developmental disorder in children. Lancet. 1998;351(9103):637-641. doi:10.1016/S0140-6736(97)11096-0",
];

interface Entry {
  index: number;
  verdict: string;
  mismatched?: string[];
  confidence: number;
  record?: Record<string, string>;
  retracted: boolean;
  retraction: string;
}

Deno.test("verify_references gives a mixed list the right verdict per entry, over MCP", async () => {
  await withTools({ env: ENV, driveClock: true }, async (h) => {
    const result = await h.call("verify_references", { references: MIXED });
    assert.equal(result.isError, undefined, result.content[0].text);
    const [real, misspelled, invented, retracted] = result.structuredContent.entries as Entry[];

    assert.equal(real.verdict, "verified");
    assert.equal(real.record?.openalex, "W2072012262");
    assert.equal(real.record?.doi, "10.2307/416889");
    assert.ok(real.confidence >= 0.95);
    assert.equal(real.retracted, false);
    assert.match(real.retraction, /^no retraction notice found in OpenAlex$/);

    assert.equal(misspelled.verdict, "mismatch");
    assert.deepEqual(misspelled.mismatched, ["title", "first_author"]);
    assert.equal(misspelled.record?.openalex, "W2072012262", "the misspelled reference still finds its work");
    assert.ok(misspelled.confidence >= 0.75 && misspelled.confidence < 0.95);

    assert.equal(invented.verdict, "not_found");
    assert.equal(invented.record, undefined);
    assert.ok(invented.confidence < 0.75);
    assert.match(invented.retraction, /^not checked/);

    assert.equal(retracted.verdict, "verified");
    assert.equal(retracted.retracted, true);
    assert.equal(retracted.record?.pmid, "9500320", "ECitMatch found the PMID from the Crossref record");
    assert.match(retracted.retraction, /Crossref: retraction 10\.1016\/s0140-6736\(10\)60175-4/);
    assert.match(retracted.retraction, /PubMed: retraction notice PMID 20137807/);
    // Beside the retraction: the 2004 correction Crossref lists (BUILT Crossref record, see its PROVENANCE).
    assert.deepEqual((retracted as Entry & { updates: unknown[] }).updates, [
      { type: "correction", id: "doi:10.1016/s0140-6736(04)15715-2", date: "2004-03-06", source: "Crossref" },
      { type: "retraction", id: "doi:10.1016/s0140-6736(10)60175-4", date: "2010-02-06", source: "Crossref" },
      { type: "retraction", id: "PMID:20137807", date: "2010-02-06", source: "PubMed" },
    ]);

    const text = result.content[0].text;
    assert.match(text, /^1\. verified confidence 1$/m);
    assert.match(text, /^2\. mismatch \(title, first_author differ\)/m);
    assert.match(text, /^3\. not_found/m);
    assert.match(text, /^4\. verified confidence 1 RETRACTED$/m);
    assert.match(text, /^ {3}updates: correction doi:10\.1016\/s0140-6736\(04\)15715-2 \(2004-03-06, Crossref\); /m);
    assert.doesNotMatch(text, /not retracted/i);
  });
});

Deno.test("verify_references reads BibTeX and RIS, and a DOI Crossref marks retracted (CLI)", async () => {
  await withTools({ env: ENV }, async (h) => {
    const bib = "@article{c, author = {Carberry, Josiah}, title = {Toward a Unified Theory of High-Energy " +
      "Metaphysics: Silly String Theory}, journal = {Journal of Psychoceramics}, year = 2008, doi = {10.5555/12345678}}";
    const ris = "TY  - JOUR\nAU  - Carberry, Josiah\nTI  - Toward a unified theory of high-energy metaphysics\n" +
      "PY  - 2009\nDO  - 10.5555/12345678\nER  - \n";
    const { code, out } = await cliCall(h, "verify_references", { references: [bib, ris] });
    assert.equal(code, EXIT_OK, out);
    const [fromBib, fromRis] = JSON.parse(out).entries as Entry[];
    assert.equal(fromBib.verdict, "verified");
    assert.equal(fromBib.retracted, true);
    assert.match(fromBib.retraction, /^retracted: Crossref: retraction 10\.5555\/24242424x/);
    assert.equal(fromRis.verdict, "mismatch");
    assert.deepEqual(fromRis.mismatched, ["title", "year"]);
  });
});

Deno.test("verify_references pages ten entries at a time with a cursor bound to the list", async () => {
  await withTools({ env: ENV, driveClock: true }, async (h) => {
    const many = Array.from({ length: 12 }, (_, i) => `Ref ${i}. Imaginary study number ${i}. J Nowhere. 2020.`);
    const first = await h.call("verify_references", { references: many });
    assert.equal((first.structuredContent.entries as Entry[]).length, 10);
    const cursor = first.structuredContent.next_cursor as string;
    assert.ok(cursor);
    const second = await h.call("verify_references", { references: many, cursor });
    assert.deepEqual((second.structuredContent.entries as Entry[]).map((e) => e.index), [11, 12]);
    assert.equal(second.structuredContent.next_cursor, undefined);
    const other = await h.call("verify_references", { references: many.slice(1), cursor });
    assert.equal(other.isError, true);
  });
});

Deno.test("verify_references with nothing to read is INVALID_INPUT (CLI)", async () => {
  await withTools({ env: ENV }, async (h) => {
    const { code, out } = await cliCall(h, "verify_references", { references: ["  ", "ab"] });
    assert.equal(code, EXIT_TOOL_ERROR);
    assert.equal(JSON.parse(out).error.code, "INVALID_INPUT");
  });
});

Deno.test("a real title with an invented DOI is a mismatch on the DOI, not verified", async () => {
  await withTools({ env: ENV, driveClock: true }, async (h) => {
    const result = await h.call("verify_references", {
      references: ["Bailey RW, Schmied J. English in Africa: An Introduction. Language. 1993. doi:10.9999/made.up"],
    });
    const [e] = result.structuredContent.entries as (Entry & { notes?: string[] })[];
    assert.equal(e.verdict, "mismatch");
    assert.deepEqual(e.mismatched, ["doi"]);
    assert.equal(e.record?.doi, "10.2307/416889");
    assert.ok(e.notes?.some((n) => n.includes("10.9999/made.up is registered neither at Crossref nor in OpenAlex")));
  });
});

/** Answers every request whose URL names `source` (crossref, openalex, ncbi) with `status`. */
function down(source: string, status: number): Route {
  return (request) =>
    request.url.href.includes(source)
      ? new Response(`{"error":"down"}`, { status, headers: { "content-type": "application/json" } })
      : undefined;
}

const ALL = ["crossref", "openalex", "ncbi"];

// Two references, one with a DOI, so all three sources are asked (a 429 storm is waited out per request).
const REAL_AND_DOI = [MIXED[0], MIXED[3]];

for (const [status, code] of [[503, "UPSTREAM_ERROR"], [429, "RATE_LIMITED"]] as const) {
  Deno.test(`verify_references with every source answering ${status} is ${code}, never not_found`, async () => {
    await withTools({ env: ENV, driveClock: true, routes: ALL.map((s) => down(s, status)) }, async (h) => {
      const result = await h.call("verify_references", { references: REAL_AND_DOI });
      assert.equal(result.isError, true, result.content[0].text);
      const error = result.structuredContent.error as { code: string; message: string; recovery_hint: string };
      assert.equal(error.code, code, error.message);
      assert.match(error.message, /Could not check any of the 2 references/);
      for (const source of ["PubMed", "OpenAlex", "Crossref"]) assert.match(error.message, new RegExp(source));
      assert.match(error.recovery_hint, /retry/i);
      assert.doesNotMatch(result.content[0].text, /not_found/);
    });
  });
}

Deno.test("verify_references with PubMed down names it per entry and says unverified, not not_found", async () => {
  await withTools({ env: ENV, driveClock: true, routes: [down("ncbi", 503)] }, async (h) => {
    const result = await h.call("verify_references", { references: MIXED.slice(0, 3) });
    assert.equal(result.isError, undefined, result.content[0].text);
    const [real, , invented] = result.structuredContent.entries as (Entry & { failed?: string[] })[];

    assert.equal(real.verdict, "verified", "OpenAlex answered with the work");
    assert.equal(real.record?.openalex, "W2072012262");

    assert.equal(invented.verdict, "unverified", "no match while PubMed failed proves no absence");
    assert.ok(invented.failed?.length);
    assert.ok(invented.failed!.every((f) => f.startsWith("PubMed")), invented.failed!.join("\n"));
    assert.match(invented.failed!.join("\n"), /503/);

    const text = result.content[0].text;
    assert.match(text, /^3\. unverified confidence/m);
    assert.match(text, /^ {3}failed: PubMed search: /m);
    assert.match(text, /1 unverified: no match, but lookups failed/);
    assert.doesNotMatch(text, /not_found/);
  });
});

Deno.test("verify_references with Crossref down keeps the OpenAlex verdict and names Crossref", async () => {
  await withTools({ env: ENV, driveClock: true, routes: [down("crossref", 500)] }, async (h) => {
    const result = await h.call("verify_references", { references: MIXED.slice(0, 1) });
    assert.equal(result.isError, undefined, result.content[0].text);
    const [real] = result.structuredContent.entries as (Entry & { failed?: string[] })[];
    assert.equal(real.verdict, "verified");
    assert.match(real.retraction, /^no retraction notice found in OpenAlex$/, "Crossref is not claimed as checked");
    assert.ok(real.failed?.some((f) => /^Crossref: .*\b500\b/.test(f)), JSON.stringify(real.failed));
    assert.match(result.content[0].text, /^ {3}failed: Crossref: .*\b500\b/m);
  });
});

Deno.test("ECitMatch matched but the record could not be read: unverified with the PMID, not not_found", async () => {
  // ECitMatch answers PMID 2014248 for PNAS 1991;88:3248 (the recorded pubmedclient__ecitmatch_mixed.txt);
  // PubMed's EFetch answers without that record (the mock holds no record for it).
  await withTools({ env: ENV, driveClock: true }, async (h) => {
    const result = await h.call("verify_references", {
      references: [
        "Mann BJ, Torian BE, Vedvick TS, Petri WA Jr. Sequence of a cysteine-rich galactose-specific lectin of " +
        "Entamoeba histolytica. Proc Natl Acad Sci U S A. 1991;88(8):3248-52.",
      ],
    });
    assert.equal(result.isError, undefined, result.content[0].text);
    const [e] = result.structuredContent.entries as (Entry & { unreadable_record?: string; notes?: string[] })[];
    assert.equal(e.verdict, "unverified");
    assert.equal(e.unreadable_record, "PMID 2014248 by ECitMatch");
    assert.deepEqual(e.record, { pmid: "2014248" });
    assert.ok(e.notes?.some((n) => /ECitMatch matched PMID 2014248 .* could not be read/.test(n)), e.notes?.join("\n"));
    assert.match(
      result.content[0].text,
      /^1\. unverified \(matched PMID 2014248 by ECitMatch; record unreadable\) confidence 0$/m,
    );
    assert.doesNotMatch(result.content[0].text, /not_found/);
  });
});

const INVENTED_WITH_DOI = "Smith J, Doe A. Quantum entanglement of teapots in microgravity. Nature. 2021;590:12-15. " +
  "doi:10.9999/teapots.2021";

Deno.test("a DOI both Crossref and OpenAlex answered is not there: not_found, though PubMed failed", async () => {
  await withTools({ env: ENV, driveClock: true, routes: [down("ncbi", 503)] }, async (h) => {
    const result = await h.call("verify_references", { references: [INVENTED_WITH_DOI] });
    assert.equal(result.isError, undefined, result.content[0].text);
    const [e] = result.structuredContent.entries as (Entry & { failed?: string[] })[];
    assert.equal(e.verdict, "not_found");
    assert.ok(e.failed?.some((f) => f.startsWith("PubMed")), "the failed search is still named");
  });
});

Deno.test("a DOI one registry could not be asked about is unverified", async () => {
  await withTools({ env: ENV, driveClock: true, routes: [down("crossref", 500)] }, async (h) => {
    const result = await h.call("verify_references", { references: [INVENTED_WITH_DOI, MIXED[0]] });
    const [e] = result.structuredContent.entries as (Entry & { failed?: string[] })[];
    assert.equal(e.verdict, "unverified");
    assert.ok(e.failed?.some((f) => /^Crossref: .*\b500\b/.test(f)), JSON.stringify(e.failed));
  });
});

Deno.test("a reference with nothing to match (empty BibTeX title, empty RIS record, 19,000 nested braces) is unreadable, never verified", async () => {
  const nested = `@article{deep, title={${"{".repeat(9_500)}x${"}".repeat(9_500)}}}`; // 19,000 braces
  await withTools({ env: ENV, driveClock: true }, async (h) => {
    const result = await h.call("verify_references", {
      references: [
        "@article{k, title={}}",
        "TY  - JOUR\nER  - ",
        nested,
        "@article{a, author={Smith, J}, year={2020}}",
      ],
    });
    assert.equal(result.isError, undefined, result.content[0].text);
    const entries = result.structuredContent.entries as (Entry & { notes?: string[] })[];
    assert.deepEqual(entries.map((e) => e.verdict), ["unreadable", "unreadable", "unreadable", "unreadable"]);
    for (const e of entries) {
      assert.equal(e.confidence, 0);
      assert.equal(e.record, undefined);
      assert.match(e.notes!.join(" "), /missing an identifier \(DOI, PMID, arXiv id, OpenAlex W id\), a title/);
    }
    assert.match(entries[0].notes![0], /the author, year, venue of author \+ year \+ venue/);
    assert.match(entries[3].notes![0], /the venue of author \+ year \+ venue/, "names only what is missing");
    assert.equal(h.requests.length, 0, "nothing was looked up");
    assert.match(result.content[0].text, /^1\. unreadable confidence 0$/m);
  });
});

Deno.test("author + year + venue without a title is enough to look a reference up", async () => {
  await withTools({ env: ENV, driveClock: true }, async (h) => {
    const result = await h.call("verify_references", {
      references: ["@article{a, author={Bailey, R. W.}, year={1993}, journal={Language}}"],
    });
    const [entry] = result.structuredContent?.entries as Entry[] ?? [];
    assert.notEqual(entry?.verdict, "unreadable", result.content[0].text);
  });
});
