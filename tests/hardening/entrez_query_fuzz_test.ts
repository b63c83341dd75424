/**
 * Entrez query strings under fuzzing, through MCP: whatever a model types as searchPubMedArticles
 * `queryTerm` or search_genes `query` reaches ESearch as one `term` parameter, verbatim except for control
 * characters (and lone surrogates, which no URL can carry), with no parameter injected or lost — `&`,
 * `#`, `=`, `%`, quotes and brackets never break the URL or the form body.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { ALL_TOOLS } from "../../src/catalog.ts";
import type { RecordedRequest } from "../helpers/runtime.ts";
import { hostileString } from "./arbitraries.ts";
import { fuzzSettings } from "./fuzz_check.ts";
import { type FuzzWorld, openFuzzWorld } from "./fuzz_world.ts";

const SETTINGS = fuzzSettings(4);
const RUNS = SETTINGS.numRuns;
// deno-lint-ignore no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]+/g;

/** Query and form parameters of a recorded request, as the upstream would read them. */
function paramsOf(request: RecordedRequest): URLSearchParams {
  const params = new URLSearchParams(request.url.search);
  if ((request.headers.get("content-type") ?? "").includes("application/x-www-form-urlencoded")) {
    for (const [k, v] of new URLSearchParams(request.body)) params.append(k, v);
  }
  return params;
}

const queryText = fc.oneof(
  { weight: 3, arbitrary: hostileString },
  { weight: 2, arbitrary: fc.string({ unit: "grapheme", minLength: 1, maxLength: 60 }) },
  {
    weight: 2,
    arbitrary: fc.array(
      fc.constantFrom(
        "a&db=nuccore",
        "x=y",
        "#",
        "%",
        "%26",
        "+",
        '"',
        "[",
        "]",
        "(",
        ")",
        "tp53",
        " AND ",
        "\u0000",
        "\n",
        "é",
      ),
      { minLength: 1, maxLength: 8 },
    ).map((p) => p.join("")),
  },
);

interface Case {
  tool: string;
  args: (q: string) => Record<string, unknown>;
  db: string;
  /** The term ESearch must receive for query `q` (control characters already removed when the tool does). */
  terms: (q: string) => string[];
}

const CASES: Case[] = [
  {
    tool: "searchPubMedArticles",
    args: (q) => ({ queryTerm: q, maxResults: 5 }),
    db: "pubmed",
    terms: (q) => [q.replace(CONTROL, " ").trim().toWellFormed()],
  },
  {
    tool: "search_genes",
    args: (q) => ({ query: q }),
    db: "gene",
    terms: (q) => {
      const trimmed = q.trim();
      return [trimmed, trimmed.replace(CONTROL, " ").trim()].map((t) => `(${t.toWellFormed()}) AND alive[prop]`);
    },
  },
];

async function esearchKeys(world: FuzzWorld, c: Case): Promise<string[]> {
  await world.client.callTool({ name: c.tool, arguments: c.args("tp53 benign") });
  const request = world.requests.findLast((r) => r.url.pathname.endsWith("/esearch.fcgi"));
  assert.ok(request, `${c.tool} sent no ESearch`);
  return [...new Set(paramsOf(request).keys())].sort();
}

for (const c of CASES) {
  Deno.test({
    name: `entrez query: ${RUNS} hostile ${c.tool} queries reach ESearch intact, one term, nothing injected`,
    ignore: !ALL_TOOLS.some((t) => t.name === c.tool),
    sanitizeResources: false,
    sanitizeOps: false,
    fn: async () => {
      const world = await openFuzzWorld();
      try {
        const keys = await esearchKeys(world, c);
        let sent = 0;
        const details = await fc.check(
          fc.asyncProperty(queryText, async (q) => {
            const before = world.requests.length;
            const r = await world.client.callTool({ name: c.tool, arguments: c.args(q) });
            const error = (r.structuredContent as { error?: { code: string } }).error;
            assert.notEqual(error?.code, "INTERNAL", JSON.stringify(r.structuredContent));
            const fresh = world.requests.slice(before).filter((x) => x.url.pathname.endsWith("/esearch.fcgi"));
            if (fresh.length === 0) {
              // Refused before any request (INVALID_INPUT), or answered from the cache of an identical term.
              if (r.isError) assert.equal(error?.code, "INVALID_INPUT");
              return;
            }
            sent++;
            const params = paramsOf(fresh[0]);
            assert.equal(fresh[0].url.host, "127.0.0.1:9");
            assert.deepEqual([...new Set(params.keys())].sort(), keys, `parameters changed for ${JSON.stringify(q)}`);
            for (const key of keys) {
              assert.equal(params.getAll(key).length, 1, `${key} repeated for ${JSON.stringify(q)}`);
            }
            assert.equal(params.get("db"), c.db);
            assert.ok(
              c.terms(q).includes(params.get("term")!),
              `term ${JSON.stringify(params.get("term"))} ≠ ${JSON.stringify(q)}`,
            );
          }),
          { ...SETTINGS, endOnFailure: true },
        );
        if (details.failed) assert.fail(`seed ${details.seed}: ${String(details.errorInstance).slice(0, 600)}`);
        console.log(`${c.tool}: ${sent} of ${RUNS} fuzzed queries reached ESearch (the rest: refused or cached)`);
        assert.ok(sent > RUNS / 4, `only ${sent} fuzzed queries reached ESearch`);
      } finally {
        await world.close();
      }
    },
  });
}
