/**
 * find_author: OpenAlex authors by name, narrowed by affiliation (institutions matched by name first) or by
 * ORCID, with ids, current institutions, works and citation counts, h-index and main topics. Each author's works
 * are one call away: search_papers with `author` (newest or most cited first, paged).
 */
import { z } from "../../core/zod.ts";
import { cursorBinding, cursorInput, decodeCursor, encodeCursor } from "../../core/envelope.ts";
import { invalidInput, ToolError } from "../../core/errors.ts";
import { nextCall, nextCallLine, nextCallSchema } from "../../core/next_call.ts";
import { textBlock, warningLines } from "../../render/markdown.ts";
import { OpenAlexClient } from "../../sources/openalex/client.ts";
import { bareOrcid, type OpenAlexAuthor } from "../../sources/openalex/parse_author.ts";
import { defineTool, READS_NETWORK } from "../tool_def.ts";
import { logOperatorNotices } from "./operator_notices.ts";
import { warningSchema } from "./schemas.ts";
import { openalexPages } from "./search_pages.ts";

const TOOL = "find_author";
/** Topics and other spellings shown per author. */
const SHOWN = 5;
/** Institutions an affiliation name may stand for. */
const AFFILIATION_MATCHES = 5;

const input = z.object({
  name: z.string().trim().min(2).max(200).optional().describe("Name"),
  orcid: z.string().trim().max(60).optional().describe("ORCID"),
  affiliation: z.string().trim().min(2).max(200).optional().describe("Institution name"),
  count: z.number().int().min(1).max(25).default(5).describe("Per page"),
  cursor: cursorInput(),
});

const authorSchema = z.object({
  id: z.string().describe("OpenAlex author id: search_papers author= takes it"),
  name: z.string(),
  orcid: z.string().optional(),
  institutions: z.array(z.string()).describe("Last known, current first"),
  works_count: z.number().int().optional(),
  cited_by_count: z.number().int().optional(),
  h_index: z.number().int().optional(),
  i10_index: z.number().int().optional(),
  topics: z.array(z.string()).describe("Main topics, most works first"),
  also_known_as: z.array(z.string()).optional(),
});

const output = z.object({
  authors: z.array(authorSchema),
  total_count: z.number().int(),
  affiliations_matched: z.array(z.string()).optional().describe("Institutions the affiliation name matched"),
  query_sent: z.string(),
  next_cursor: z.string().optional(),
  next: nextCallSchema,
  warnings: z.array(warningSchema).optional(),
});

type Args = z.output<typeof input>;
type Author = z.infer<typeof authorSchema>;

export const findAuthor = defineTool({
  name: TOOL,
  title: "Find an author",
  toolset: "papers",
  description: "OpenAlex authors by name (+affiliation) or ORCID: ids, institutions, counts, h-index, topics; " +
    'works via search_papers author=id. Example: {"name":"Tokuzawa"}',
  input,
  output,
  annotations: READS_NETWORK,
  examples: [
    { name: "Tokihiko Tokuzawa" },
    { name: "Tokuzawa", affiliation: "Kyushu University", count: 3 },
    { orcid: "0000-0001-5473-2109" },
  ],
  async run(args, ctx) {
    if (!args.name && !args.orcid) {
      throw invalidInput("name", "is missing", args.name, "Give name (and optionally affiliation), or orcid.");
    }
    const filters: string[] = [];
    if (args.orcid) {
      const orcid = bareOrcid(args.orcid);
      if (!orcid) {
        throw invalidInput("orcid", "is not an ORCID", args.orcid, "Write it as 0000-0001-5473-2109.");
      }
      filters.push(`orcid:https://orcid.org/${orcid}`);
    }
    const client = new OpenAlexClient(ctx);
    const matched: string[] = [];
    if (args.affiliation) {
      const institutions = await client.institutionIds(args.affiliation, AFFILIATION_MATCHES);
      if (institutions.length === 0) {
        throw new ToolError(
          "ENTITY_NOT_FOUND",
          `OpenAlex knows no institution named like "${args.affiliation}".`,
          "Check the spelling, use the institution's usual English name, or search by name alone.",
        );
      }
      matched.push(...institutions.map((i) => `${i.id}: ${i.name}`));
      filters.push(`affiliations.institution.id:${institutions.map((i) => i.id).join("|")}`);
    }
    const q = { ...(args.name ? { search: args.name } : {}), ...(filters.length ? { filter: filters.join(",") } : {}) };
    const binding = cursorBinding(TOOL, { name: args.name, orcid: args.orcid, affiliation: args.affiliation });
    const offset = decodeCursor(args.cursor, binding, TOOL);
    const authors: Author[] = [];
    let total = 0;
    let unreadable = 0;
    for (const page of openalexPages(offset, args.count)) {
      const got = await client.authorsPage(q, page.perPage, page.page);
      total = got.total;
      unreadable += got.unreadable;
      authors.push(...got.authors.slice(page.skip, page.skip + page.take).map(authorView));
      if (got.authors.length + got.unreadable < page.perPage) break;
    }
    logOperatorNotices(ctx, client);
    const end = offset + authors.length + unreadable;
    const cursor = authors.length > 0 && end < Math.min(total, 10_000) ? encodeCursor(end, binding) : undefined;
    const warnings = unreadable
      ? [{
        code: "PartialResult",
        message: `${unreadable} OpenAlex results were not author records and were left out.`,
      }]
      : [];
    return {
      authors,
      total_count: total,
      ...(matched.length ? { affiliations_matched: matched } : {}),
      query_sent: Object.entries(q).map(([k, v]) => `${k}=${v}`).join("&"),
      ...(cursor ? { next_cursor: cursor, next: nextCall(TOOL, args, { cursor }) } : {}),
      ...(warnings.length ? { warnings } : {}),
    };
  },
  render(r) {
    return textBlock(
      `${r.authors.length} authors of ${r.total_count} (OpenAlex).`,
      `query_sent: ${r.query_sent}`,
      r.affiliations_matched ? `affiliation matched: ${r.affiliations_matched.join("; ")}` : undefined,
      warningLines(r.warnings),
      r.authors.length === 0
        ? "No author matched: check the spelling, drop the affiliation, or try the family name alone."
        : r.authors.flatMap(authorLines),
      "",
      nextCallLine(r.next, "cursor") ?? "last page",
    );
  },
  paging: {
    argument: "cursor",
    path: "authors",
    keep(r, kept, args: Args) {
      const binding = cursorBinding(TOOL, { name: args.name, orcid: args.orcid, affiliation: args.affiliation });
      const cursor = encodeCursor(decodeCursor(args.cursor, binding, TOOL) + kept, binding);
      return { ...r, next_cursor: cursor, next: nextCall(TOOL, args, { cursor }) };
    },
  },
});

function authorView(a: OpenAlexAuthor): Author {
  return {
    id: a.id,
    name: a.name,
    ...(a.orcid ? { orcid: a.orcid } : {}),
    institutions: a.institutions.map((i) => i.country ? `${i.name} (${i.country})` : i.name),
    ...(a.worksCount !== undefined ? { works_count: a.worksCount } : {}),
    ...(a.citedByCount !== undefined ? { cited_by_count: a.citedByCount } : {}),
    ...(a.hIndex !== undefined ? { h_index: a.hIndex } : {}),
    ...(a.i10Index !== undefined ? { i10_index: a.i10Index } : {}),
    topics: a.topics.slice(0, SHOWN).map((t) => t.works !== undefined ? `${t.name} (${t.works} works)` : t.name),
    ...(a.alternatives.length ? { also_known_as: a.alternatives.slice(0, SHOWN) } : {}),
  };
}

function authorLines(a: Author): string[] {
  const counts = [
    a.works_count !== undefined ? `${a.works_count} works` : "",
    a.cited_by_count !== undefined ? `${a.cited_by_count} citations` : "",
    a.h_index !== undefined ? `h-index ${a.h_index}` : "",
    a.i10_index !== undefined ? `i10-index ${a.i10_index}` : "",
  ].filter(Boolean).join(", ");
  return [
    "",
    `## ${a.id}: ${a.name}`,
    ...(a.orcid ? [`orcid: ${a.orcid}`] : []),
    ...(a.institutions.length ? [`institutions: ${a.institutions.join("; ")}`] : []),
    ...(counts ? [counts] : []),
    ...(a.topics.length ? [`topics: ${a.topics.join("; ")}`] : []),
    ...(a.also_known_as ? [`also known as: ${a.also_known_as.join("; ")}`] : []),
    `works: search_papers {"source":"openalex","author":"${a.id}","sort":"date"} (sort "citations" for most cited)`,
  ];
}
