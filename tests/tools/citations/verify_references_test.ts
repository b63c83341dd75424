import assert from "node:assert/strict";
import { EXIT_OK, EXIT_TOOL_ERROR } from "../../../src/cli/main.ts";
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

    const text = result.content[0].text;
    assert.match(text, /^1\. verified confidence 1$/m);
    assert.match(text, /^2\. mismatch \(title, first_author differ\)/m);
    assert.match(text, /^3\. not_found/m);
    assert.match(text, /^4\. verified confidence 1 RETRACTED$/m);
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
