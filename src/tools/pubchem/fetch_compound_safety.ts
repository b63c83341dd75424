/** fetch_compound_safety: GHS hazard classification of a compound (PUG-View), every statement with its source. */
import { z } from "../../core/zod.ts";
import { defineTool, READS_NETWORK } from "../tool_def.ts";
import { fetchGhs, summarizeGhs } from "../../sources/pubchem/safety.ts";
import { cidSchema } from "./shared.ts";
import { cursorInput, cursorOffset, type OffsetPaging, offsetPaging } from "../../core/envelope.ts";
import { nextCallLine, nextCallSchema } from "../../core/next_call.ts";

/**
 * The summary (signal word, pictograms, H-statements over every source) comes on each page; the per-source
 * classifications page by cursor when they do not fit the output budget (#31).
 */
const PAGES: OffsetPaging = { tool: "fetch_compound_safety", path: "sources" };

const input = z.object({
  cid: cidSchema.describe("PubChem CID, e.g. 176"),
  cursor: cursorInput(),
});

const signal = z.enum(["Danger", "Warning"]);

const output = z.object({
  cid: z.number().int(),
  name: z.string().optional().describe("PubChem's record title."),
  signalWord: signal.optional().describe("Strictest signal word over all sources."),
  pictograms: z.array(z.object({
    code: z.string().describe("GHS01–GHS09."),
    name: z.string(),
  })).describe("Every pictogram any source gives."),
  hazardStatements: z.array(z.object({
    code: z.string(),
    text: z.string(),
    hazardClass: z.string().optional().describe("Hazard class and category."),
    percent: z.number().optional().describe("Highest share of ECHA C&L notifiers reporting it."),
    share: z.string().optional().describe("That share as printed when a bound, e.g. '> 99.9%'."),
    marks: z.string().optional().describe("CLP asterisks after the code, e.g. '**'."),
    sources: z.array(z.string()).describe("Sources that give it."),
  })).describe("Each H-statement once, in code order."),
  sources: z.array(z.object({
    source: z.string().describe("Depositing source, e.g. 'European Chemicals Agency (ECHA)'."),
    record: z.string().optional().describe("The source's record name (tells two records of one source apart)."),
    url: z.string().optional(),
    signalWord: signal.optional(),
    pictograms: z.array(z.string()),
    hazardCodes: z.array(z.string()),
    precautionaryCodes: z.array(z.string()).describe("P-statement codes, e.g. 'P301+P330+P331'."),
    unparsed: z.array(z.string()).optional().describe("Lines of this source kept verbatim: no pattern reads them."),
    notes: z.array(z.string()).optional().describe("Other items, e.g. ECHA's notifier summary."),
  })).describe("One classification per source record, as deposited."),
  warnings: z.array(z.string()).optional(),
  next_cursor: z.string().optional().describe("cursor of the next page"),
  next: nextCallSchema,
});

export const fetchCompoundSafety = defineTool({
  name: "fetch_compound_safety",
  title: "PubChem GHS hazard classification",
  toolset: "pubchem",
  description: "A compound's GHS hazard classification (PubChem): signal word, pictograms, H- and P-statement " +
    "codes per source (ECHA, HSDB, …), for safety or handling. No GHS data " +
    '(ENTITY_NOT_FOUND) does not mean safe. Example: {"cid":176}',
  input,
  output,
  annotations: READS_NETWORK,
  examples: [{ cid: 176 }],
  async run(args, ctx) {
    const offset = cursorOffset(PAGES, args);
    const record = await fetchGhs(ctx, args.cid);
    const unread = record.classifications.reduce((n, c) => n + c.unparsed.length, 0);
    return {
      cid: record.cid,
      ...(record.name ? { name: record.name } : {}),
      ...summarizeGhs(record.classifications),
      sources: record.classifications.slice(offset).map((c) => ({
        source: c.source,
        ...(c.record ? { record: c.record } : {}),
        ...(c.url ? { url: c.url } : {}),
        ...(c.signalWord ? { signalWord: c.signalWord } : {}),
        pictograms: c.pictograms.map((p) => p.code),
        hazardCodes: c.hazardStatements.map((h) => h.code),
        precautionaryCodes: c.precautionaryCodes,
        ...(c.unparsed.length ? { unparsed: c.unparsed } : {}),
        ...(c.notes.length ? { notes: c.notes } : {}),
      })),
      ...(unread || record.warnings
        ? {
          warnings: [
            ...(unread
              ? [`${unread} line(s) could not be read as GHS data; kept verbatim under sources[].unparsed`]
              : []),
            ...(record.warnings ?? []),
          ],
        }
        : {}),
    };
  },
  render(r) {
    const lines = [
      `# GHS hazards: ${r.name ?? `CID ${r.cid}`} (CID ${r.cid})`,
      `signal word: ${r.signalWord ?? "none given"}`,
      `pictograms: ${r.pictograms.map((p) => `${p.code} ${p.name}`).join(", ") || "none"}`,
      "",
      "## Hazard statements",
      ...r.hazardStatements.map((h) => {
        const detail = [
          h.hazardClass,
          h.percent === undefined ? undefined : `${h.share ?? `${h.percent}%`} of ECHA notifiers`,
        ]
          .filter(Boolean).join("; ");
        return `- ${h.code}${h.marks ? ` ${h.marks}` : ""}: ${h.text}${detail ? ` (${detail})` : ""} — ${
          h.sources.map(shortName).join(", ")
        }`;
      }),
      "",
      "## Precautionary statement codes, by source",
      ...r.sources.filter((s) => s.precautionaryCodes.length).map((s) =>
        `- ${label(s)}: ${s.precautionaryCodes.join(", ")}`
      ),
      ...unparsedLines(r.sources),
      "",
      "## Sources",
      ...r.sources.map((s) => {
        const parts = [
          s.signalWord && `signal ${s.signalWord}`,
          s.pictograms.length ? `pictograms ${s.pictograms.join(" ")}` : undefined,
          s.hazardCodes.length ? `hazards ${s.hazardCodes.join(" ")}` : undefined,
          s.url,
        ].filter(Boolean);
        const notes = (s.notes ?? []).map((n) => `\n  - ${n}`).join("");
        return `- ${label(s)} = ${s.source}: ${parts.join("; ")}${notes}`;
      }),
    ];
    return [
      ...lines,
      ...(r.warnings ?? []).map((w) => `warning: ${w}`),
      "",
      nextCallLine(r.next, "cursor") ?? "last page",
    ]
      .join("\n");
  },
  paging: offsetPaging(PAGES),
});

/** Lines no pattern reads, shown as given: a safety line is never silently dropped. */
function unparsedLines(sources: { source: string; record?: string; unparsed?: string[] }[]): string[] {
  const lines = sources.flatMap((s) => (s.unparsed ?? []).map((u) => `- ${label(s)}: ${u}`));
  return lines.length ? ["", "## Lines kept as given (not read as statements)", ...lines] : [];
}

/** "European Chemicals Agency (ECHA)" → "ECHA": the parenthesised acronym when a source has one. */
function shortName(source: string): string {
  return /\(([^()]+)\)\s*$/.exec(source)?.[1] ?? source;
}

function label(s: { source: string; record?: string }): string {
  return s.record ? `${shortName(s.source)} "${s.record}"` : shortName(s.source);
}
