import assert from "node:assert/strict";
import { z } from "zod";
import { cursorBinding, decodeCursor, encodeCursor, makePage, paginationEnvelope } from "../../src/core/envelope.ts";
import { ToolError } from "../../src/core/errors.ts";

const isInvalidCursor = (pattern: RegExp) => (e: unknown) =>
  e instanceof ToolError && e.code === "INVALID_INPUT" && pattern.test(e.message) &&
  /omit cursor/.test(e.recoveryHint) && (e.invalidInput as { field: string }).field === "cursor";

Deno.test("a cursor round-trips its offset when replayed with the same arguments", async () => {
  const binding = await cursorBinding("search_genes", { query: "BRCA1", organism: "human" });
  const cursor = encodeCursor(150, binding);
  assert.match(cursor, /^[A-Za-z0-9_-]+$/, "base64url, safe to pass around");
  assert.equal(decodeCursor(cursor, binding, "search_genes"), 150);
});

Deno.test("no cursor means the first page", () => {
  assert.equal(decodeCursor(undefined, "anything", "search_genes"), 0);
});

Deno.test("a cursor replayed against another query is refused with INVALID_INPUT", async () => {
  const brca = await cursorBinding("search_genes", { query: "BRCA1", organism: "human" });
  const mouse = await cursorBinding("search_genes", { query: "BRCA1", organism: "mouse" });
  const tp53 = await cursorBinding("search_genes", { query: "TP53", organism: "human" });
  const links = await cursorBinding("get_pubmed_links", { query: "BRCA1", organism: "human" });
  const cursor = encodeCursor(50, brca);
  for (const other of [mouse, tp53, links]) {
    assert.throws(() => decodeCursor(cursor, other, "search_genes"), isInvalidCursor(/different search_genes query/));
  }
});

Deno.test("the binding ignores argument order and omitted (undefined) arguments", async () => {
  const a = await cursorBinding("search_genes", { query: "BRCA1", organism: undefined });
  const b = await cursorBinding("search_genes", { query: "BRCA1" });
  const c = await cursorBinding("t", { x: 1, y: 2 });
  const d = await cursorBinding("t", { y: 2, x: 1 });
  assert.equal(a, b);
  assert.equal(c, d);
});

Deno.test("malformed or forged cursors are refused with INVALID_INPUT", async () => {
  const binding = await cursorBinding("get_pubmed_links", { entrez_id: "NCBIGene:7157" });
  const forged = btoa(JSON.stringify({ v: 1, o: -5, h: binding })).replace(/=+$/, "");
  for (const bad of ["not a cursor!", "abc", btoa("[1,2]"), forged, encodeCursor(1.5, binding)]) {
    assert.throws(() => decodeCursor(bad, binding, "get_pubmed_links"), isInvalidCursor(/not a cursor/), bad);
  }
});

Deno.test("makePage sets next_cursor only while items remain", async () => {
  const binding = await cursorBinding("t", { q: "x" });
  const first = makePage(["a", "b"], 5, 2, 0, binding);
  assert.deepEqual(first.items, ["a", "b"]);
  assert.equal(first.total_count, 5);
  assert.equal(first.page_size, 2);
  assert.equal(decodeCursor(first.next_cursor, binding, "t"), 2);
  const last = makePage(["e"], 5, 2, 4, binding);
  assert.equal("next_cursor" in last, false);
  const empty = makePage([], 0, 50, 0, binding);
  assert.deepEqual(empty, { items: [], total_count: 0, page_size: 50 });
});

Deno.test("paginationEnvelope validates the canonical envelope shape", () => {
  const schema = paginationEnvelope(z.string(), "things");
  assert.equal(schema.safeParse({ items: ["a"], total_count: 1, page_size: 10 }).success, true);
  assert.equal(schema.safeParse({ items: ["a"], total_count: 1, page_size: 10, next_cursor: "x" }).success, true);
  assert.equal(schema.safeParse({ items: ["a"], total_count: -1, page_size: 10 }).success, false);
  assert.equal(schema.safeParse({ items: [1], total_count: 1, page_size: 10 }).success, false);
  assert.equal(schema.safeParse({ items: [], total_count: 0, page_size: 10, next_cursor: null }).success, false);
});
