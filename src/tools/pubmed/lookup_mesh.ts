/** lookupMesh: MeSH headings for a term (ESearch + ESummary db=mesh), for [mh] queries and MeSH filters. */
import { z } from "../../core/zod.ts";
import { ToolError } from "../../core/errors.ts";
import { count, textBlock } from "../../render/markdown.ts";
import { meshSummaries, searchMesh } from "../../sources/ncbi/mesh/client.ts";
import { eSpell } from "../../sources/ncbi/pubmed/espell.ts";
import { defineTool, READS_NETWORK } from "../tool_def.ts";

const input = z.object({
  term: z.string().trim().min(2).max(200).describe("A concept, e.g. heart attack"),
  limit: z.number().int().min(1).max(10).default(3).describe("Records to return"),
});

const output = z.object({
  term: z.string(),
  total_count: z.number().int(),
  records: z.array(z.object({
    ui: z.string().optional(),
    uid: z.string(),
    heading: z.string(),
    entry_terms: z.array(z.string()),
    scope_note: z.string().optional(),
    tree_numbers: z.array(z.string()),
    mapped_to: z.array(z.string()).optional().describe("Uids of the headings a supplementary concept maps to"),
    previous_indexing: z.array(z.string()).optional(),
  })),
});

export const lookupMesh = defineTool({
  name: "lookupMesh",
  title: "MeSH lookup",
  toolset: "pubmed",
  description: "MeSH headings for a term: descriptor, tree numbers, scope note, entry terms. Use a heading in " +
    'searchPubMedArticles as Heading[mh] or in meshTerms. Example: {"term":"heart attack"}',
  input,
  output,
  annotations: READS_NETWORK,
  examples: [{ term: "SLC7A2 protein" }],
  async run(args, ctx) {
    const found = await searchMesh(ctx, args.term, args.limit);
    if (found.value.ids.length === 0) {
      const suggestion = await eSpell(ctx, args.term).then((r) => r.value, () => undefined);
      throw new ToolError(
        "ENTITY_NOT_FOUND",
        `MeSH has no heading for '${args.term}'.`,
        suggestion
          ? `Try '${suggestion}' (PubMed's spelling suggestion).`
          : "Try a broader or differently spelled term.",
        { invalidInput: { field: "term", value: args.term } },
      );
    }
    const summaries = await meshSummaries(ctx, found.value.ids.slice(0, args.limit));
    return {
      term: args.term,
      total_count: found.value.count,
      records: summaries.value.map((r) => ({
        ...(r.ui ? { ui: r.ui } : {}),
        uid: r.uid,
        heading: r.heading,
        entry_terms: r.entryTerms,
        ...(r.scopeNote ? { scope_note: r.scopeNote } : {}),
        tree_numbers: r.treeNumbers,
        ...(r.mappedTo.length ? { mapped_to: r.mappedTo } : {}),
        ...(r.previousIndexing.length ? { previous_indexing: r.previousIndexing } : {}),
      })),
    };
  },
  render: (r) =>
    textBlock(
      `${count(r.records.length, "MeSH record")} of ${r.total_count} for '${r.term}':`,
      r.records.flatMap((m) => [
        "",
        `${m.ui ?? m.uid}: ${m.heading}${
          m.tree_numbers.length ? ` [${m.tree_numbers.join(", ")}]` : ""
        } (uid ${m.uid})`,
        m.entry_terms.length ? `entry terms: ${m.entry_terms.join("; ")}` : "entry terms: none",
        ...(m.scope_note ? [`scope note: ${m.scope_note}`] : []),
        ...(m.mapped_to ? [`mapped to uids: ${m.mapped_to.join(", ")}`] : []),
        ...(m.previous_indexing ? [`previous indexing: ${m.previous_indexing.join("; ")}`] : []),
      ]),
    ),
});
