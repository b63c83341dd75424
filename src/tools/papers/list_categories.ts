/** list_categories: the arXiv taxonomy (shipped as data) or OpenAlex's domains/fields/subfields and topics. */
import { z } from "../../core/zod.ts";
import { defineTool, READS_NETWORK, type ToolContext } from "../tool_def.ts";
import { ARXIV_CATEGORIES, arxivGroups } from "../../sources/arxiv/taxonomy.ts";
import { OpenAlexClient } from "../../sources/openalex/client.ts";
import type { OpenAlexEntity } from "../../sources/openalex/types.ts";
import { openalexHierarchy } from "./openalex_hierarchy.ts";
import { logOperatorNotices } from "./operator_notices.ts";
import { sourceSchema, type Warning, warningSchema } from "./schemas.ts";
import { count, fieldLines, textBlock, warningLines } from "../../render/markdown.ts";
import { cursorInput, cursorOffset, type OffsetPaging, offsetPaging } from "../../core/envelope.ts";
import { nextCallLine, nextCallSchema } from "../../core/next_call.ts";

/** The whole list is one answer; the output budget pages it by cursor when it does not fit (#31). */
const PAGES: OffsetPaging = { tool: "list_categories", path: "categories" };

const input = z.object({
  source: sourceSchema.describe("Taxonomy to list"),
  query: z.string().trim().min(1).max(200).optional().describe("Filter by code or name"),
  include_retired: z.boolean().default(false).describe("arxiv: also retired codes"),
  cursor: cursorInput(),
});

const categorySchema = z.object({
  id: z.string().describe("Pass as fetch_latest category (or fetch_top_cited concept for OpenAlex)"),
  name: z.string(),
  level: z.enum(["category", "domain", "field", "subfield", "topic"]),
  parent: z.string().optional().describe("arXiv group, or the OpenAlex level above"),
  parent_name: z.string().optional(),
  active: z.boolean().optional().describe("arxiv: false for retired codes"),
  works_count: z.number().int().optional(),
});

const output = z.object({
  source: sourceSchema,
  categories: z.array(categorySchema),
  total: z.number().int(),
  warnings: z.array(warningSchema).optional(),
  next_cursor: z.string().optional().describe("cursor of the next page"),
  next: nextCallSchema,
});

type Output = z.input<typeof output>;

export const listCategories = defineTool({
  name: "list_categories",
  title: "List paper categories",
  toolset: "papers",
  description: "Category ids for fetch_latest and fetch_top_cited: arXiv taxonomy, or OpenAlex domains, fields, " +
    'subfields, topics (with query). Example: {"source":"openalex","query":"machine learning"}',
  input,
  output,
  annotations: READS_NETWORK,
  examples: [{ source: "arxiv", query: "cs." }, { source: "openalex" }, {
    source: "openalex",
    query: "artificial intelligence",
  }],
  async run(args, ctx) {
    const offset = cursorOffset(PAGES, args);
    const all = args.source === "arxiv" ? arxivCategories(args) : await openalexCategories(args, ctx);
    return { ...all, categories: all.categories.slice(offset) };
  },
  render: (r) =>
    textBlock(
      `${count(r.total, `${r.source} category`, `${r.source} categories`)} (id: name; details):`,
      warningLines(r.warnings),
      r.categories.map(({ id, name, ...rest }) => `- ${id}: ${name}; ${fieldLines(rest).join("; ")}`),
      "",
      nextCallLine(r.next, "cursor") ?? "last page",
    ),
  paging: offsetPaging(PAGES),
});

type Args = z.output<typeof input>;

function arxivCategories(args: Args): Output {
  const q = args.query?.toLowerCase();
  const groups = new Map(arxivGroups().map((g) => [g.id, g.name]));
  const categories = ARXIV_CATEGORIES
    .filter((c) => args.include_retired || c.active)
    .filter((c) => !q || c.code.toLowerCase().includes(q) || c.name.toLowerCase().includes(q))
    .map((c) => ({
      id: c.code,
      name: c.name,
      level: "category" as const,
      parent: c.group,
      parent_name: groups.get(c.group),
      active: c.active,
    }));
  return { source: "arxiv", categories, total: categories.length };
}

async function openalexCategories(args: Args, ctx: ToolContext): Promise<Output> {
  const entities = await openalexHierarchy(ctx);
  const q = args.query?.toLowerCase();
  const levels = entities.filter((e) => !q || e.name.toLowerCase().includes(q));
  const warnings: Warning[] = [];
  let topics: OpenAlexEntity[] = [];
  if (args.query) {
    const client = new OpenAlexClient(ctx);
    topics = await client.searchTopics(args.query, 25);
    logOperatorNotices(ctx, client);
  }
  const categories = [...levels, ...topics].map((e) => ({
    id: e.id,
    name: e.name,
    level: e.level === "concept" ? "topic" as const : e.level,
    ...(e.parent ? { parent: e.parent } : {}),
    ...(e.parentName ? { parent_name: e.parentName } : {}),
    ...(e.worksCount !== undefined ? { works_count: e.worksCount } : {}),
  }));
  return { source: "openalex", categories, total: categories.length, ...(warnings.length ? { warnings } : {}) };
}
