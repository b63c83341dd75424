import assert from "node:assert/strict";
import { ARXIV_CATEGORIES } from "../../../src/sources/arxiv/taxonomy.ts";
import { HIERARCHY_TTL_MS } from "../../../src/tools/papers/openalex_hierarchy.ts";
import { papersClient, structured } from "./mock.ts";

interface Categories {
  categories: { id: string; name: string; level: string; parent?: string; parent_name?: string; active?: boolean }[];
  total: number;
  warnings?: { code: string }[];
}

Deno.test("list_categories: the arXiv taxonomy comes from data, no network", async () => {
  const { call, close, fetch } = await papersClient();
  try {
    const all = structured<Categories>(await call("list_categories", { source: "arxiv" }));
    assert.ok(all.total >= 150);
    assert.ok(all.categories.every((c) => c.active));
    assert.deepEqual(all.categories.find((c) => c.id === "cs.LG"), {
      id: "cs.LG",
      name: "Machine Learning",
      level: "category",
      parent: "cs",
      parent_name: "Computer Science",
      active: true,
    });
    const retired = structured<Categories>(await call("list_categories", { source: "arxiv", include_retired: true }));
    assert.ok(retired.categories.some((c) => c.id === "cmp-lg" && c.active === false));
    const q = structured<Categories>(await call("list_categories", { source: "arxiv", query: "quantum" }));
    assert.ok(q.categories.some((c) => c.id === "quant-ph"));
    assert.equal(fetch.requests.length, 0);
  } finally {
    await close();
  }
});

Deno.test("list_categories: OpenAlex domains/fields/subfields are fetched once and kept for a day", async () => {
  const { call, close, fetch, clock } = await papersClient({ env: { OPENALEX_API_KEY: "k" } });
  try {
    const first = structured<Categories>(await call("list_categories", { source: "openalex" }));
    const requests = fetch.requests.length;
    assert.ok(requests >= 3);
    assert.deepEqual(first.categories.find((c) => c.id === "fields/17"), {
      id: "fields/17",
      name: "Computer Science",
      level: "field",
      parent: "domains/3",
      parent_name: "Physical Sciences",
    });
    assert.ok(first.categories.some((c) => c.id === "domains/4" && c.level === "domain"));
    assert.ok(
      first.categories.some((c) => c.id === "subfields/1702" && c.parent === "fields/17" && c.level === "subfield"),
    );
    const second = structured<Categories>(await call("list_categories", { source: "openalex" }));
    assert.equal(fetch.requests.length, requests, "served from memory");
    assert.deepEqual(second.categories, first.categories);
    assert.equal(second.warnings, undefined, "no request, so no budget to report");
    await clock.advance(HIERARCHY_TTL_MS + 1);
    structured(await call("list_categories", { source: "openalex" }));
    assert.ok(fetch.requests.length > requests, "refetched after a day");
  } finally {
    await close();
  }
});

Deno.test("list_categories: an OpenAlex query adds matching topics", async () => {
  const { call, close } = await papersClient();
  try {
    const out = structured<Categories>(await call("list_categories", { source: "openalex", query: "health" }));
    assert.ok(out.categories.some((c) => c.id === "T11636" && c.level === "topic" && c.parent === "subfields/2718"));
    assert.ok(out.categories.some((c) => c.id === "domains/4"));
    assert.equal(out.warnings, undefined, "operator notices go to the log, not to the model");
  } finally {
    await close();
  }
});

Deno.test("the arXiv taxonomy is also a resource", async () => {
  const { client, close } = await papersClient();
  try {
    const { resources } = await client.listResources();
    assert.ok(resources.some((r) => r.uri === "papers://arxiv/taxonomy"));
    const { contents } = await client.readResource({ uri: "papers://arxiv/taxonomy" });
    const data = JSON.parse(String((contents[0] as { text?: string }).text));
    assert.equal(data.groups.length, 8);
    assert.ok(data.categories.some((c: { code: string; active: boolean }) => c.code === "cmp-lg" && !c.active));
  } finally {
    await close();
  }
});

Deno.test("list_categories cut to a small output budget pages on from the first category left out", async () => {
  const { call, close } = await papersClient({ env: { SCIENCE_MCP_MAX_OUTPUT_CHARS: "2000" } });
  try {
    const result = await call("list_categories", { source: "arxiv" });
    const text = result.content![0].text!;
    assert.ok(text.length <= 2000);
    const notice = text.split("\n").at(-1)!;
    const kept = Number(
      /^cut: showing (\d+) of \d+ categories .*; next page: call again with cursor=/.exec(notice)?.[1],
    );
    const first = (result.structuredContent as { categories: { id: string }[] }).categories;
    assert.equal(first.length, kept);
    const next = (result.structuredContent as { next: { arguments: Record<string, unknown> } }).next;
    const second = (await call("list_categories", next.arguments)).structuredContent as {
      categories: { id: string }[];
    };
    const active = ARXIV_CATEGORIES.filter((c) => c.active).map((c) => c.code);
    assert.deepEqual(second.categories[0].id, active[kept]);
  } finally {
    await close();
  }
});
