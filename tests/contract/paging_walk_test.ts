/**
 * The paging walk (#31): for every tool whose answer the output budget can cut, each catalogue example with
 * its size arguments at their maximum (200 where `count` has none) is answered once uncut (a 10,000,000-
 * character budget), then walked at budgets of 24,000 and 4,000 by following `next` against the mock: the
 * pages put together equal the uncut answer, nothing appears twice, every page fits its budget, and every
 * call the text prints (a next-page line, a `cut:` line) is the `next` call and passes the input schema.
 */
import assert from "node:assert/strict";
import { z } from "zod";
import { ALL_TOOLS } from "../../src/catalog.ts";
import type { AnyToolDef } from "../../src/tools/tool_def.ts";
import { type ToolHarness, toolHarness } from "../helpers/tool_harness.ts";

const UNCUT = 10_000_000;
const BUDGETS = [24_000, 4_000];
/** More pages than any walk here needs; a walk that reaches it is going round in circles. */
const MAX_PAGES = 400;

/** Numeric arguments that select rather than size (ids, offsets, thresholds) keep the example's value. */
const NOT_SIZES = /offset|threshold|cid|sid|aid|^size$|^top$|fromYear|toYear/i;

interface JsonProperty {
  type?: string | string[];
  maximum?: number;
}

/** The example with every size argument at its maximum, and 200 where `count` has none. */
export function maxedOut(input: z.ZodObject, example: Record<string, unknown>): Record<string, unknown> {
  const schema = z.toJSONSchema(input, { io: "input" }) as { properties?: Record<string, JsonProperty> };
  const args = { ...example };
  for (const [key, property] of Object.entries(schema.properties ?? {})) {
    const types = [property.type].flat();
    if (NOT_SIZES.test(key) || !(types.includes("integer") || types.includes("number"))) continue;
    const unbounded = property.maximum === undefined || property.maximum >= Number.MAX_SAFE_INTEGER;
    if (!unbounded) args[key] = property.maximum;
    else if (key === "count") args[key] = 200;
  }
  return args;
}

function at(root: unknown, path: string): unknown {
  return path.split(".").reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], root);
}

interface NextCall {
  tool: string;
  arguments: Record<string, unknown>;
}

/** The calls a text prints: `— tool {json}` at the end of a next-page or `cut:` line. */
function printedCalls(text: string): { line: string; call: NextCall }[] {
  const calls = [];
  for (const line of text.split("\n")) {
    if (!line.startsWith("next page:") && !line.startsWith("cut:")) continue;
    const m = / — (\S+) (\{.*\})$/.exec(line);
    if (m) calls.push({ line, call: { tool: m[1], arguments: JSON.parse(m[2]) } });
  }
  return calls;
}

interface Walk {
  /** Items (as JSON) or the text, in the order the pages delivered them. */
  data: string[] | string;
  /** The last page had a next call. */
  more: boolean;
  pages: number;
}

/** The field and characters a cursor continues an item at, when the budget split that item. */
function continuation(args: Record<string, unknown>): { f: string; c?: number } | undefined {
  if (typeof args.cursor !== "string") return undefined;
  const json = new TextDecoder().decode(
    Uint8Array.from(atob(args.cursor.replaceAll("-", "+").replaceAll("_", "/")), (c) => c.charCodeAt(0)),
  );
  const position = JSON.parse(json);
  return typeof position.f === "string" ? { f: position.f, c: position.c } : undefined;
}

/**
 * The two parts of one item the budget split: `first` up to `field`, then `rest` (the item's first field again,
 * then `field` on): a text at `field` shown in part continues where it stopped.
 */
function joined(first: unknown, rest: unknown, field: string): unknown {
  const whole = { ...first as Record<string, unknown> };
  for (const [key, value] of Object.entries(rest as Record<string, unknown>)) {
    const before = whole[key];
    const continues = key === field && typeof before === "string" && typeof value === "string";
    whole[key] = continues ? before + value : value;
  }
  return whole;
}

/** Follows `next` from `args` until the data covers `want` items (characters) or there is no next page. */
async function walk(
  h: ToolHarness,
  def: AnyToolDef,
  args: Record<string, unknown>,
  budget: number,
  want: number,
): Promise<Walk> {
  const path = def.paging!.path;
  let text: string | undefined;
  const items: unknown[] = [];
  let call: NextCall | undefined = { tool: def.name, arguments: args };
  let pages = 0;
  while (call) {
    assert.ok(++pages <= MAX_PAGES, `${def.name}: more than ${MAX_PAGES} pages`);
    const result = await h.call(call.tool, call.arguments);
    const shown = result.content[0].text;
    assert.ok(!result.isError, `${def.name} ${JSON.stringify(call.arguments)}: ${shown}`);
    assert.ok(shown.length <= budget, `${def.name}: ${shown.length} characters at a budget of ${budget}`);
    const s = result.structuredContent;
    const page = at(s, path);
    if (typeof page === "string") text = (text ?? "") + page;
    else {
      const list = [...page as unknown[]];
      const split = continuation(call.arguments);
      if (split && list.length > 0) items.push(joined(items.pop(), list.shift(), split.f));
      items.push(...list);
    }
    const next = s.next as NextCall | undefined;
    for (const printed of printedCalls(shown)) {
      assert.deepEqual(printed.call, next, `${def.name}: the printed call is the next call: ${printed.line}`);
    }
    if (next) {
      assert.equal(next.tool, def.name);
      const parsed = z.strictObject(def.input.shape).safeParse(next.arguments);
      assert.ok(parsed.success, `${def.name}: next call fails the input schema: ${JSON.stringify(next.arguments)}`);
    }
    const data = text ?? items.map((item) => JSON.stringify(item));
    // A split item is complete only once the page after it has been read.
    const splitting = next !== undefined && continuation(next.arguments) !== undefined;
    if (!next || (data.length >= want && !splitting)) return { data, more: next !== undefined, pages };
    call = next;
  }
  throw new Error("unreachable");
}

const PAGING = ALL_TOOLS.filter((def) => def.paging);

/** Tools the budget still cuts without paging, while #31 is under way: this list only shrinks. */
/** Every tool the budget cuts pages (#31). */
const NOT_YET_PAGED: string[] = [];

Deno.test("every tool whose answer the budget cuts pages", async () => {
  const h = await toolHarness({
    env: { SCIENCE_MCP_MAX_OUTPUT_CHARS: "4000", NCBI_MAX_RETRIES: "0" },
    driveClock: true,
  });
  try {
    const unpaged: string[] = [];
    for (const def of ALL_TOOLS) {
      if (def.paging) continue;
      for (const example of def.examples as Record<string, unknown>[]) {
        const result = await h.call(def.name, maxedOut(def.input, example));
        if (result.content[0].text.split("\n").at(-1)!.startsWith("cut: ")) unpaged.push(def.name);
      }
    }
    assert.deepEqual([...new Set(unpaged)], NOT_YET_PAGED);
  } finally {
    await h.close();
  }
});

for (const def of PAGING) {
  Deno.test(`${def.name}: following next at budgets ${BUDGETS.join(" and ")} delivers the uncut answer`, async () => {
    const env = (budget: number) => ({ SCIENCE_MCP_MAX_OUTPUT_CHARS: String(budget), NCBI_MAX_RETRIES: "0" });
    const uncut = await toolHarness({ env: env(UNCUT), driveClock: true });
    const cut = await Promise.all(BUDGETS.map((budget) => toolHarness({ env: env(budget), driveClock: true })));
    try {
      for (const example of def.examples as Record<string, unknown>[]) {
        const args = maxedOut(def.input, example);
        const whole = await walk(uncut, def, args, UNCUT, 0);
        for (const [i, budget] of BUDGETS.entries()) {
          const got = await walk(cut[i], def, args, budget, whole.data.length);
          const what = `${def.name} ${JSON.stringify(args)} at ${budget} (${got.pages} pages)`;
          assert.deepEqual(
            got.data.slice(0, whole.data.length),
            whole.data,
            `${what}: the pages differ from the uncut answer`,
          );
          if (typeof got.data !== "string") {
            assert.equal(new Set(got.data).size, got.data.length, `${what}: an item appears twice`);
          }
          if (!whole.more) {
            assert.equal(got.data.length, whole.data.length, `${what}: more than the uncut answer`);
            assert.equal(got.more, false, `${what}: a next page after the end`);
          }
        }
      }
    } finally {
      await uncut.close();
      for (const h of cut) await h.close();
    }
  });
}
