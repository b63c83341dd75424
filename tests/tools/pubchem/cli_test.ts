/**
 * The pubchem tools through the CLI (`science-mcp call <tool> '<json>'`), against the mock routes:
 * success, not found, bad input and PubChem's ServerBusy fault for every tool.
 */
import assert from "node:assert/strict";
import { type CliIo, EXIT_OK, EXIT_TOOL_ERROR, runCli } from "../../../src/cli/main.ts";
import { ManualClock } from "../../../src/core/clock.ts";
import { scriptedFetch, testRuntime } from "../../helpers/runtime.ts";
import { busy, MOCK_BASE, mockRoutesFetch } from "./helpers.ts";

type Args = Record<string, unknown>;

/** Per tool: a success, a not-found and a bad-input argument set (undefined: the case cannot occur). */
const CASES: Record<string, { ok: Args; notFound?: Args; bad: Args }> = {
  search_compound_by_identifier: {
    ok: { identifierType: "name", identifier: "aspirin" },
    notFound: { identifierType: "name", identifier: "unobtainium" },
    bad: { identifierType: "inchikey", identifier: "aspirin" },
  },
  fetch_compound_properties: {
    ok: { cids: [2244], properties: ["Title"] },
    notFound: { cids: [999999999], properties: ["Title"] },
    bad: { cids: [], properties: ["Title"] },
  },
  get_compound_image_url: { ok: { cid: 2244 }, notFound: { cid: 999999999 }, bad: { cid: 0 } },
  search_compounds_by_structure: {
    ok: { searchType: "identity", query: "2244", queryType: "cid" },
    notFound: { searchType: "identity", query: "999", queryType: "cid" },
    bad: { searchType: "identity", query: "aspirin", queryType: "cid" },
  },
  search_compounds_by_similarity: {
    ok: { query: "2244", queryType: "cid" },
    notFound: { query: "999", queryType: "cid" },
    bad: { query: "2244", queryType: "cid", threshold: 50 },
  },
  search_compounds_by_formula: { ok: { formula: "C9H8O4" }, notFound: { formula: "Xe9" }, bad: { formula: "c9h8o4" } },
  fetch_substance_details: { ok: { sid: 4594 }, notFound: { sid: 1 }, bad: { sid: -4 } },
  fetch_assay_summary: { ok: { aid: 1851 }, notFound: { aid: 1 }, bad: { aid: "AID1851" } },
  search_assays_by_target: {
    ok: { targetType: "genesymbol", targetQuery: "CYP3A4" },
    notFound: { targetType: "genesymbol", targetQuery: "NOPE1" },
    bad: { targetType: "genesymbol", targetQuery: "cytochrome P450 3A4" },
  },
  fetch_compound_xrefs: {
    ok: { cid: 2244, xrefTypes: ["PubMedID"] },
    notFound: { cid: 1, xrefTypes: ["RN"] },
    bad: { cid: 2244, xrefTypes: ["DOI"] },
  },
  fetch_compound_safety: { ok: { cid: 176 }, notFound: { cid: 2244 }, bad: { cid: "acetic acid" } },
  fetch_compound_bioactivity: {
    ok: { cid: 2244, count: 3 },
    notFound: { cid: 3672 },
    bad: { cid: 2244, count: 500 },
  },
};

async function cli(tool: string, args: Args, fetch = mockRoutesFetch()): Promise<{ code: number; out: unknown }> {
  const clock = new ManualClock(1_700_000_000_000);
  let out = "";
  const io: CliIo = {
    stdout: (text) => void (out += text),
    stderr: () => {},
    stderrIsTerminal: false,
    runtime: () => testRuntime({ fetch, clock, env: { PUBCHEM_BASE_URL: MOCK_BASE } }),
  };
  const run = runCli(["call", tool, JSON.stringify(args)], io);
  let settled = false;
  run.then(() => (settled = true), () => (settled = true));
  for (let step = 0; !settled && step < 3600; step++) await clock.advance(1000);
  return { code: await run, out: JSON.parse(out) };
}

const codeOf = (out: unknown) => (out as { error: { code: string } }).error.code;

for (const [tool, cases] of Object.entries(CASES)) {
  Deno.test(`cli: ${tool} success, not found, bad input and ServerBusy`, async (t) => {
    await t.step("success exits 0 with structuredContent on stdout", async () => {
      const { code, out } = await cli(tool, cases.ok);
      assert.equal(code, EXIT_OK, JSON.stringify(out));
      assert.equal((out as { error?: unknown }).error, undefined);
    });
    if (cases.notFound) {
      await t.step("not found exits 2 with ENTITY_NOT_FOUND", async () => {
        const { code, out } = await cli(tool, cases.notFound!);
        assert.equal(code, EXIT_TOOL_ERROR);
        assert.equal(codeOf(out), "ENTITY_NOT_FOUND");
      });
    }
    await t.step("bad input exits 2 with INVALID_INPUT", async () => {
      const { code, out } = await cli(tool, cases.bad);
      assert.equal(code, EXIT_TOOL_ERROR);
      assert.equal(codeOf(out), "INVALID_INPUT");
    });
    if (cases.notFound) {
      await t.step("PubChem ServerBusy exits 2 with RATE_LIMITED", async () => {
        const { code, out } = await cli(tool, cases.ok, scriptedFetch(busy));
        assert.equal(code, EXIT_TOOL_ERROR);
        assert.equal(codeOf(out), "RATE_LIMITED");
      });
    }
  });
}
