/**
 * ESummary db=gene version=2.0 → {@link GeneSummary} per document, in the order NCBI sent them.
 * A fatal `<ERROR>` throws; a per-uid `<error>` (unknown or withdrawn id) drops that document only.
 */
import { eSummaryDocuments } from "../eutils/root.ts";
import { parseNcbiXml, text, type XmlNode } from "../eutils/xml.ts";
import type { GeneSummary } from "./types.ts";
import { assertComplete } from "./xml_scan.ts";

export function parseGeneSummaries(xml: string, url: string): GeneSummary[] {
  const doc = parseNcbiXml(xml, url, ["DocumentSummary"]);
  assertComplete(xml, ["eSummaryResult"], url);
  const docs = eSummaryDocuments(doc, url, () => "Retry shortly; NCBI may be degraded.");
  return docs.filter((d) => !text(d.error)).map(toSummary);
}

function toSummary(d: XmlNode): GeneSummary {
  const currentId = text(d.CurrentID);
  return {
    geneId: text(d["@_uid"]),
    symbol: text(d.Name) || text(d.NomenclatureSymbol),
    name: text(d.Description) || text(d.NomenclatureName),
    aliases: splitList(text(d.OtherAliases), ","),
    designations: splitList(text(d.OtherDesignations), "|"),
    organism: scientificName(d.Organism) || text(d.Orgname),
    taxonId: text(d.TaxID) || text((d.Organism as XmlNode | undefined)?.TaxID),
    chromosome: text(d.Chromosome),
    mapLocation: text(d.MapLocation),
    summary: text(d.Summary),
    status: text(d.Status) || "0",
    ...(currentId && currentId !== "0" ? { currentId } : {}),
  };
}

/** Newer gene summaries nest the organism (`<Organism><ScientificName>`); older ones have `<Orgname>`. */
function scientificName(node: unknown): string {
  return node && typeof node === "object" ? text((node as XmlNode).ScientificName) : "";
}

function splitList(value: string, separator: string): string[] {
  return value.split(separator).map((s) => s.trim()).filter(Boolean);
}
