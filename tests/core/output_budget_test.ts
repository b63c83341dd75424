import assert from "node:assert/strict";
import { fitToBudget } from "../../src/core/output_budget.ts";

const render = (r: Record<string, unknown>) =>
  [`${(r.items as string[]).length} items`, ...(r.items as string[]), String(r.note ?? "")].join("\n");

Deno.test("a result within the budget is returned as it is", () => {
  const structured = { items: ["a", "b"] };
  assert.deepEqual(fitToBudget(structured, render, 1000), { structured, text: render(structured) });
});

Deno.test("a list is cut from its end in both copies, and one last line says how to get the rest", () => {
  const items = Array.from({ length: 200 }, (_, i) => `${i}`.padEnd(50, "x"));
  const fitted = fitToBudget({ items }, render, 3000, undefined, { args: { count: 200 }, names: ["count", "offset"] });
  const kept = fitted.structured.items as string[];
  assert.ok(fitted.text.length <= 3000, `${fitted.text.length}`);
  assert.deepEqual(kept, items.slice(0, kept.length));
  assert.ok(fitted.text.startsWith(render(fitted.structured)));
  assert.equal(
    fitted.text.split("\n").at(-1),
    `cut: showing ${kept.length} of 200 items to stay within the 3,000-character output budget; call again ` +
      `with count at most ${kept.length}, then page on with offset.`,
  );
  assert.deepEqual(fitted.cut?.omitted, items.slice(kept.length));
});

Deno.test("with no list to cut, the longest text is shortened and marked", () => {
  const fitted = fitToBudget({ items: ["x".repeat(10_000)], note: "kept" }, render, 2500, undefined, {
    args: { max_chars: 10_000, offset: 0 },
    names: ["max_chars", "offset"],
  });
  const text = (fitted.structured.items as string[])[0];
  assert.ok(text.endsWith("…") && text.length < 2500);
  assert.ok(fitted.text.length <= 2500);
  assert.match(
    fitted.text,
    /\ncut: items\.0 cut to \d+ of 10000 characters .*; call again with a smaller max_chars, then page on with offset\.$/,
  );
});

Deno.test("a tool's own hint says how to get the rest when it knows better", () => {
  const items = Array.from({ length: 300 }, (_, i) => ({ pmid: String(i) }));
  const fitted = fitToBudget(
    { items },
    (r) => JSON.stringify(r),
    2000,
    (cut) => `fetch the ${cut.omitted.length} others`,
  );
  assert.match(fitted.text, /; fetch the \d+ others$/);
});

/** A tool's paging over `items` by offset: the next call's offset is what the kept part ends at. */
const paging = {
  argument: "offset",
  path: "items",
  keep: (r: Record<string, unknown>, kept: number) => ({
    ...r,
    next: { tool: "t", arguments: { offset: (r.offset as number) + kept } },
  }),
  split: (r: Record<string, unknown>, field: string, chars: number) => ({
    ...r,
    next: { tool: "t", arguments: { offset: r.offset as number, field, chars } },
  }),
};
const pageRender = (r: Record<string, unknown>) =>
  [...(r.items as unknown[]).map((i) => JSON.stringify(i)), `next ${JSON.stringify(r.next ?? null)}`].join("\n");

Deno.test("a paged cut keeps the first items and the next call starts right after them, in the text too", () => {
  const items = Array.from({ length: 200 }, (_, i) => `${i}`.padEnd(50, "x"));
  const call = { args: { offset: 0 }, names: ["offset"], paging };
  const fitted = fitToBudget({ items, offset: 0 }, pageRender, 3000, undefined, call);
  const kept = (fitted.structured.items as string[]).length;
  assert.ok(fitted.text.length <= 3000 && kept > 1 && kept < 200);
  assert.deepEqual(fitted.structured.next, { tool: "t", arguments: { offset: kept } });
  assert.match(
    fitted.text,
    new RegExp(`\\ncut: showing ${kept} of 200 items .*; next page: call again with offset=${kept} — t`),
  );
});

Deno.test("one item over the budget by itself is shown up to where it fits, and the next call goes on inside it", () => {
  const item = { id: "A", title: "t", body: "word ".repeat(2000), tail: ["x"] };
  const call = { args: { offset: 0 }, names: ["offset"], paging };
  const fitted = fitToBudget({ items: [item], offset: 0 }, pageRender, 3000, undefined, call);
  const [shown] = fitted.structured.items as Record<string, unknown>[];
  assert.ok(fitted.text.length <= 3000);
  assert.equal(shown.id, "A");
  assert.ok(item.body.startsWith(shown.body as string) && (shown.body as string).length > 1000);
  assert.equal(shown.tail, undefined);
  assert.deepEqual(fitted.structured.next, {
    tool: "t",
    arguments: { offset: 0, field: "body", chars: (shown.body as string).length },
  });
});
