/** convert_article_ids: PMID ↔ PMCID ↔ DOI through the NCBI PMC ID Converter, reported per id. */
import { z } from "../../core/zod.ts";
import { defineTool, READS_NETWORK } from "../tool_def.ts";
import { convertIds } from "../../sources/idconv/client.ts";
import { type ArticleId, parseArticleId } from "../../sources/idconv/ids.ts";
import { normalizeArxivId } from "../../sources/arxiv/ids.ts";

export const MAX_IDS = 1000;
/** PMIDs the "not in PubMed Central" line writes into its call; the rest are in the records above it. */
const HINTED_PMIDS = 20;

const input = z.object({
  ids: z.array(z.string().trim().min(1).max(300)).min(1).max(MAX_IDS).describe(
    "PMIDs, PMCIDs, DOIs, mixed",
  ),
});

const recordSchema = z.object({
  requested_id: z.string(),
  pmid: z.string().optional(),
  pmcid: z.string().optional(),
  doi: z.string().optional(),
  mid: z.string().optional(),
  error: z.string().optional(),
});

const output = z.object({
  records: z.array(recordSchema),
  converted: z.number().int(),
  failed: z.number().int(),
});

export const convertArticleIds = defineTool({
  name: "convert_article_ids",
  title: "Convert article ids",
  toolset: "papers",
  description: "PMID ↔ PMCID ↔ DOI (NCBI PMC ID Converter; PubMed Central articles only), errors per id. " +
    'Example: {"ids":["PMC3299399"]}',
  input,
  output,
  annotations: READS_NETWORK,
  examples: [{ ids: ["22416237", "PMC8435807", "10.3389/fpsyt.2012.00018"] }],
  async run(args, ctx) {
    const parsed = args.ids.map((raw) => ({ raw, id: parseArticleId(raw) }));
    const valid = parsed.filter((p): p is { raw: string; id: ArticleId } => p.id !== undefined);
    const answers = valid.length
      ? await convertIds(ctx, valid.map((p) => p.id), (done, total) => ctx.progress(done, total, "converting ids"))
      : [];
    const byRaw = new Map(valid.map((p, i) => [p.raw, answers[i]]));
    const records = parsed.map(({ raw, id }) => {
      if (!id) return { requested_id: raw, error: notConvertible(raw) };
      const { requestedId: _sent, ...found } = byRaw.get(raw)!;
      return { requested_id: raw, ...found };
    });
    const failed = records.filter((r) => r.error).length;
    return { records, converted: records.length - failed, failed };
  },
  rest(cut) {
    if (cut.path !== "records") return undefined;
    const omitted = (cut.omitted as { requested_id: string }[]).map((rec) => rec.requested_id);
    // Where they start in the caller's list first: a list too long for the notice is cut at its end (#34).
    const span = omitted.length > 1 ? `, ${omitted[0]} to ${omitted.at(-1)}` : "";
    return `convert the other ${omitted.length} (your ids from number ${cut.kept + 1} on${span}) in a further ` +
      `call: ids=${JSON.stringify(omitted)}`;
  },
  render(r) {
    const lines = [`# ${r.converted} of ${r.records.length} ids converted`];
    for (const rec of r.records) {
      lines.push("", `## ${rec.requested_id}`);
      for (const key of ["pmid", "pmcid", "doi", "mid", "error"] as const) {
        if (rec[key]) lines.push(`${key}: ${rec[key]}`);
      }
    }
    // A PMID outside PMC has no PMCID to give, but its PubMed record has the DOI (#34).
    const notInPmc = r.records.filter((rec) => rec.error && rec.pmid && !rec.pmcid).map((rec) => rec.pmid);
    if (notInPmc.length) {
      const shown = notInPmc.slice(0, HINTED_PMIDS);
      const more = notInPmc.length > shown.length ? ` (then the other ${notInPmc.length - shown.length} above)` : "";
      lines.push(
        "",
        `not in PubMed Central: fetchArticleDetails ${JSON.stringify({ pmids: shown })} gives the DOI${more}`,
      );
    }
    return lines.join("\n");
  },
});

/** Why an id was not sent to the converter, naming the tool that takes it when it is an arXiv id. */
function notConvertible(raw: string): string {
  const arxiv = normalizeArxivId(raw);
  return arxiv
    ? `an arXiv id, not converted here: fetch_content {"source":"arxiv","id":"${arxiv}"} reads it`
    : "not a PMID, PMCID or DOI";
}
