/**
 * No noise, no repetition in what the model reads (#34): each source once, request URLs in structuredContent
 * and the log only, institutions numbered once, and every instruction an answer prints (the next page, the
 * sections to pick from, the ids a cut left out) complete enough to follow as written.
 */
import assert from "node:assert/strict";
import { type CallResult, withTools } from "../helpers/tool_harness.ts";

type Args = Record<string, unknown>;

const text = (r: CallResult) => r.content.map((c) => c.text).join("");
const data = (r: CallResult) => r.structuredContent as Record<string, unknown>;

/** The JSON of the call a line of `answer` writes after `marker`. */
function callAfter(answer: CallResult, marker: string): Args {
  const line = text(answer).split("\n").find((l) => l.includes(marker));
  assert.ok(line, `no "${marker}" in:\n${text(answer)}`);
  return JSON.parse(line.slice(line.indexOf(marker) + marker.length));
}

Deno.test("an abstract-only fetch_content names each source and its outcome once, without request URLs", async () => {
  await withTools({ env: { SCIENCE_MCP_TOOLSETS: "papers,pubmed" }, driveClock: true }, async (h) => {
    const answer = await h.call("fetch_content", { source: "pubmed", id: "27797938" });
    const out = data(answer) as { tried: { what: string; request_url: string; outcome: string }[]; abstract: string };
    assert.equal(out.tried.length, 4);
    const shown = text(answer);
    for (const t of out.tried) {
      assert.equal(shown.split(t.outcome).length - 1, 1, `"${t.outcome}" once`);
      assert.ok(!shown.includes(t.request_url), `request URL ${t.request_url} in the text`);
      assert.ok(h.logs.some((r) => String(r.msg).includes(t.request_url)), `request URL ${t.request_url} logged`);
    }
    assert.doesNotMatch(shown, /efetch\.fcgi|europepmc\/search|fullTextXML/);
    assert.doesNotMatch(shown, /## outline/, "an abstract's one-entry outline is left out");
    // 4,358 characters before #34 to deliver a 1,873-character abstract.
    assert.ok(shown.length < 3_300, `${shown.length} characters`);
  });
});

Deno.test("fetchArticleDetails writes each institution once, numbered; structuredContent keeps each affiliation", async () => {
  await withTools({ env: { SCIENCE_MCP_TOOLSETS: "pubmed" }, driveClock: true }, async (h) => {
    const answer = await h.call("fetchArticleDetails", { pmids: ["27797938"] });
    const shown = text(answer);
    const harvard =
      "Department of Epidemiology, Harvard T.H. Chan School of Public Health, Boston, Massachusetts, USA.";
    assert.equal(shown.split(harvard).length - 1, 1, "the institution is written once");
    const n = shown.match(new RegExp(`^(\\d+)\\. ${harvard.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`, "m"))?.[1];
    assert.ok(n, "it is numbered in the affiliation list");
    assert.match(shown, new RegExp(`Yuan C \\(Chen\\) \\[(\\d+,)*${n}(,\\d+)*\\]`), "an author refers to it by number");
    const authors = (data(answer).articles as { authors: { affiliation?: string }[] }[])[0].authors;
    assert.equal(
      authors[2].affiliation,
      `${harvard}; Department of Medical Oncology, Dana-Farber Cancer Institute, Boston, Massachusetts, USA.`,
    );
  });
});

Deno.test("get_citation_graph's next-page line is the whole call, and following it reads page 2", async () => {
  await withTools({ env: { SCIENCE_MCP_TOOLSETS: "papers" }, driveClock: true }, async (h) => {
    const first = await h.call("get_citation_graph", { id: "W2741809807", relation: "cited_by", limit: 2 });
    const call = callAfter(first, "— get_citation_graph ");
    assert.deepEqual(call, { id: "W2741809807", relation: "cited_by", limit: 2, cursor: data(first).next_cursor });
    assert.deepEqual(data(first).next, { tool: "get_citation_graph", arguments: call });
    const second = await h.call("get_citation_graph", call);
    assert.equal(second.isError, undefined, text(second));
    const ids = (r: CallResult) => (data(r).items as { openalex: string }[]).map((w) => w.openalex);
    assert.equal(ids(second).length, 2);
    assert.ok(ids(second).every((id) => !ids(first).includes(id)), "page 2 repeats nothing of page 1");
  });
});

Deno.test("a section that matches nothing lists every outline entry", async () => {
  await withTools({ env: { SCIENCE_MCP_TOOLSETS: "papers,pubmed" }, driveClock: true }, async (h) => {
    const answer = await h.call("fetch_content", { source: "pubmed", id: "PMC3299399", section: "Zebra" });
    const hint = (data(answer).error as { recovery_hint: string }).recovery_hint;
    const listed = [...hint.matchAll(/(?:: |; )(\d+) /g)].map((m) => Number(m[1]));
    assert.deepEqual(listed, Array.from({ length: 22 }, (_, i) => i + 1), hint);
    assert.match(hint, /22 References\.$/);
    // Each listed entry is a section the tool takes.
    const last = await h.call("fetch_content", { source: "pubmed", id: "PMC3299399", section: "22" });
    assert.equal((data(last).section as { heading: string }).heading, "References");
  });
});

Deno.test("a cut convert_article_ids names every id it did not convert, and following it converts them", async () => {
  const ids = Array.from({ length: 40 }, (_, i) => String(30_000_000 + i));
  const env = { SCIENCE_MCP_TOOLSETS: "papers", SCIENCE_MCP_MAX_OUTPUT_CHARS: "2000" };
  await withTools({ env, driveClock: true }, async (h) => {
    const first = await h.call("convert_article_ids", { ids });
    const cut = text(first).split("\n").at(-1)!;
    assert.match(cut, /^cut: showing \d+ of 40 records/);
    const rest = JSON.parse(cut.slice(cut.indexOf("ids=") + 4)) as string[];
    const shown = (data(first).records as { requested_id: string }[]).map((r) => r.requested_id);
    assert.deepEqual([...shown, ...rest], ids, "the shown and the named ids are every id, once, in order");
    const second = await h.call("convert_article_ids", { ids: rest });
    assert.deepEqual((data(second).records as { requested_id: string }[]).map((r) => r.requested_id), rest);
  });
});

Deno.test("a cut of more ids than its notice can list says where the rest start in the caller's list", async () => {
  const ids = Array.from({ length: 1000 }, (_, i) => String(30_000_000 + i));
  await withTools({ env: { SCIENCE_MCP_TOOLSETS: "papers" }, driveClock: true }, async (h) => {
    const answer = await h.call("convert_article_ids", { ids });
    const kept = (data(answer).records as unknown[]).length;
    const cut = text(answer).split("\n").at(-1)!;
    assert.match(
      cut,
      new RegExp(
        `convert the other ${1000 - kept} \\(your ids from number ${kept + 1} on, ${ids[kept]} to 30000999\\)`,
      ),
    );
  });
});
