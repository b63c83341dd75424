import assert from "node:assert/strict";
import { fixture } from "../../helpers/runtime.ts";
import { errorOf, papersClient, structured } from "../../tools/papers/mock.ts";

const OUTAGE = `<!DOCTYPE html><html><head><title>503 Service Unavailable</title></head>
<body><h1>Service Unavailable</h1><p>The server is temporarily unable to service your request.</p></body></html>`;

function pmcEfetch(body: string) {
  return (req: { url: URL }) =>
    req.url.pathname.endsWith("/efetch.fcgi") && req.url.searchParams.get("db") === "pmc"
      ? new Response(body, { status: 200, headers: { "content-type": "text/html" } })
      : undefined;
}

Deno.test("fetch_content: PMC's outage page is an upstream error, not 'no record found'", async () => {
  const { call, close } = await papersClient({ routes: [pmcEfetch(OUTAGE)] });
  try {
    const error = errorOf(await call("fetch_content", { source: "pubmed", id: "PMC3299399" }));
    assert.equal(error.code, "UPSTREAM_ERROR");
    assert.match(error.message, /HTML page \("503 Service Unavailable"\) instead of a PMC article set/);
  } finally {
    await close();
  }
});

Deno.test("fetch_content: another article than the PMCID asked for is refused and named", async () => {
  const other = fixture("ncbi/pmc/built__efetch_pmc_floats_PMC9000001.xml");
  const { call, close } = await papersClient({ routes: [pmcEfetch(other)] });
  try {
    const error = errorOf(await call("fetch_content", { source: "pubmed", id: "PMC3299399" }));
    assert.equal(error.code, "UPSTREAM_ERROR");
    assert.match(error.message, /PMC answered with PMC9000001 when asked for PMC3299399/);
  } finally {
    await close();
  }
});

Deno.test("fetch_content shows every abstract and the floats PMC put after the back matter", async () => {
  const article = fixture("ncbi/pmc/built__efetch_pmc_floats_PMC9000001.xml");
  const { call, close } = await papersClient({ routes: [pmcEfetch(article)] });
  try {
    const out = structured<{ text: string }>(await call("fetch_content", { source: "pubmed", id: "PMC9000001" }));
    const headings = [...out.text.matchAll(/^## (.+)$/gm)].map((m) => m[1]);
    assert.deepEqual(headings.slice(0, 6), [
      "Abstract",
      "Author Summary (abstract-type: summary)",
      "Graphical abstract (abstract-type: graphical)",
      "Teaser (abstract-type: teaser)",
      "Editor's summary (abstract-type: editor)",
      "Translated abstract (fr) (abstract-type: trans-abstract)",
    ]);
    assert.ok(headings.includes("Figures and tables"));
    assert.match(out.text, /a\) Rates are in turnovers per min\.\nb\) Chain lengths/);
  } finally {
    await close();
  }
});
