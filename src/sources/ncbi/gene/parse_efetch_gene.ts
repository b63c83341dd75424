/**
 * EFetch db=gene retmode=xml → {@link GeneRecord}. A record (TP53: 15 MB, 400k lines) is mostly GeneRIFs,
 * interactions and location history that get_gene does not report, so nothing builds a tree of it:
 * the record is located by its geneid, its small head (track info → location) goes through the shared
 * XML parser, and the locus and the two comment sections that carry RefSeq and UniProtKB references
 * are read by targeted scanning (see xml_scan.ts).
 */
import { UpstreamError } from "../../../core/errors.ts";
import { parseJob } from "../../parse_job.ts";
import { asArray, parseNcbiXml, text, type XmlNode } from "../eutils/xml.ts";
import { buildCrossReferences, type Dbtag, type ProductRefs } from "./cross_references.ts";
import type { GeneRecord, GenomicLocation } from "./types.ts";
import { baseAccession } from "./uniprot_order.ts";
import { assertComplete, attribute, findElement, findElements, indexIn, leafText, type Span } from "./xml_scan.ts";

/** Comment sections whose products carry the gene's RefSeq and UniProtKB references. */
const PRODUCT_SECTIONS = ["NCBI Reference Sequences (RefSeq)", "Related Sequences"];
/** Elements after the head, in DTD order; the head ends where the first of them starts. */
const AFTER_HEAD = ["Entrezgene_locus", "Entrezgene_properties", "Entrezgene_refgene", "Entrezgene_homology"];
const HEAD_ARRAYS = ["Dbtag", "Gene-ref_syn_E", "Prot-ref_name_E", "SubSource"];

/**
 * The record for `geneId` in an EFetch answer, or undefined when the answer has none (an unknown id
 * gives an empty Entrezgene-Set or an `<ERROR>`, depending on NCBI's mood).
 */
export function parseGeneRecord(xml: string, geneId: string, url: string): GeneRecord | undefined {
  if (!xml.trimStart().startsWith("<")) {
    throw new UpstreamError({
      kind: "parse",
      upstream: "ncbi-eutils",
      url,
      message: `NCBI sent a body that is not XML (${JSON.stringify(xml.trimStart().slice(0, 80))}) for ${url}`,
    });
  }
  assertComplete(xml, ["Entrezgene-Set", "eFetchResult"], url);
  const record = locateRecord(xml, geneId);
  if (!record) return undefined;
  const headEnd = Math.min(
    ...AFTER_HEAD.map((name) => findElement(xml, name, record.contentStart, record.end)?.start ?? record.contentEnd),
    indexOrEnd(xml, "<Entrezgene_comments>", record),
  );
  const { geneTags, ...head } = parseHead(xml.slice(record.start, headEnd) + "</Entrezgene>", url);
  const locus = findElement(xml, "Entrezgene_locus", headEnd, record.end);
  const comments = findElement(xml, "Entrezgene_comments", headEnd, record.end);
  const products: ProductRefs = { refseq: [], uniprot: [], uniprotEntries: new Set() };
  // Each placement of the locus separately: products on a RefSeqGene (NG_) alignment are marked as such.
  for (const placement of locus ? findElements(xml, "Gene-commentary", locus.contentStart, locus.contentEnd) : []) {
    collectProducts(xml, placement, products, onRefSeqGene(xml, placement));
  }
  if (comments) {
    for (const section of findElements(xml, "Gene-commentary", comments.contentStart, comments.contentEnd)) {
      if (PRODUCT_SECTIONS.includes(ownHeading(xml, section))) collectProducts(xml, section, products);
    }
  }
  return {
    ...head,
    genomicLocation: locus ? genomicLocation(xml, locus) : undefined,
    crossReferences: buildCrossReferences(geneTags, products),
  };
}

/** {@link parseGeneRecord} as a parse job (a TP53 record is 15.8 MB: see parse_off_thread.ts). */
export const geneRecordJob = parseJob(
  "gene-record",
  "ncbi-eutils",
  (xml: string, url: string, geneId: string) => parseGeneRecord(xml, geneId, url),
);

function locateRecord(xml: string, geneId: string): Span | undefined {
  for (let record = findElement(xml, "Entrezgene"); record; record = findElement(xml, "Entrezgene", record.end)) {
    if (leafText(xml, "Gene-track_geneid", record.contentStart, record.contentEnd) === geneId) return record;
  }
  return undefined;
}

function indexOrEnd(xml: string, needle: string, record: Span): number {
  const at = indexIn(xml, needle, record.contentStart, record.contentEnd);
  return at >= 0 ? at : record.contentEnd;
}

type Head = Omit<GeneRecord, "genomicLocation" | "crossReferences"> & { geneTags: Dbtag[] };

function parseHead(xml: string, url: string): Head {
  const gene = parseNcbiXml(xml, url, HEAD_ARRAYS).Entrezgene as XmlNode;
  const track = path(gene, "Entrezgene_track-info", "Gene-track");
  const geneRef = path(gene, "Entrezgene_gene", "Gene-ref");
  const protRef = path(gene, "Entrezgene_prot", "Prot-ref");
  const orgRef = path(gene, "Entrezgene_source", "BioSource", "BioSource_org", "Org-ref");
  const subtypes = asArray(path(gene, "Entrezgene_source", "BioSource", "BioSource_subtype").SubSource as XmlNode[]);
  const chromosome = subtypes.find((s) => attr(s["SubSource_subtype"], "value") === "chromosome");
  const taxon = dbtags(path(orgRef, "Org-ref_db")).find((t) => t.db === "taxon");
  const productNames = asArray(path(protRef, "Prot-ref_name")["Prot-ref_name_E"]).map(text);
  const currentId = dbtags(path(track, "Gene-track_current-id")).find((t) => t.db === "GeneID")?.value;
  const summary = text(gene["Entrezgene_summary"]);
  return {
    geneId: text(track["Gene-track_geneid"]),
    symbol: text(geneRef["Gene-ref_locus"]),
    name: text(geneRef["Gene-ref_desc"]),
    description: text(protRef["Prot-ref_desc"]) || productNames[0] || firstSentence(summary),
    summary,
    mapLocation: text(geneRef["Gene-ref_maploc"]),
    chromosome: chromosome ? text(chromosome["SubSource_name"]) : "",
    aliases: asArray(path(geneRef, "Gene-ref_syn")["Gene-ref_syn_E"]).map(text).filter(Boolean),
    organism: { name: text(orgRef["Org-ref_taxname"]), taxonId: taxon?.value ?? "" },
    type: attr(gene["Entrezgene_type"], "value"),
    status: attr(track["Gene-track_status"], "value") || "live",
    ...(currentId ? { currentId } : {}),
    geneTags: dbtags(path(geneRef, "Gene-ref_db")),
  };
}

/** A locus placement on a RefSeqGene record: labelled so, or an NG_ accession. */
function onRefSeqGene(xml: string, placement: Span): boolean {
  const accession = leafText(xml, "Gene-commentary_accession", placement.contentStart, placement.contentEnd);
  return accession.startsWith("NG_") ||
    leafText(xml, "Gene-commentary_label", placement.contentStart, placement.contentEnd) === "RefSeqGene";
}

/**
 * RefSeq accessions (versioned), UniProt protein entries and UniProtKB tags anywhere inside `span`.
 * @param onRefSeqGene the span is a RefSeqGene placement (its products may be older versions).
 */
function collectProducts(xml: string, span: Span, into: ProductRefs, onRefSeqGene = false): void {
  const accessionTag = "<Gene-commentary_accession>";
  for (
    let pos = indexIn(xml, accessionTag, span.start, span.end);
    pos >= 0;
    pos = indexIn(xml, accessionTag, pos + 1, span.end)
  ) {
    const accession = leafText(xml, "Gene-commentary_accession", pos, span.end);
    const uniprot = baseAccession(accession);
    if (uniprot) into.uniprotEntries.add(uniprot);
    if (!/^[A-Z]{2}_\d/.test(accession)) continue;
    const versionAt = xml.indexOf("<Gene-commentary_", pos + accessionTag.length + accession.length);
    const version = xml.startsWith("<Gene-commentary_version>", versionAt)
      ? leafText(xml, "Gene-commentary_version", versionAt, span.end)
      : "";
    into.refseq.push({ accession: version ? `${accession}.${version}` : accession, onRefSeqGene });
  }
  for (const tag of spanDbtags(xml, span)) if (tag.db.startsWith("UniProtKB/")) into.uniprot.push(tag);
}

/** Every Dbtag in `span`, read by scanning (the comment sections are too large to parse as a tree). */
function spanDbtags(xml: string, span: Span): Dbtag[] {
  const out: Dbtag[] = [];
  for (const dbtag of findElements(xml, "Dbtag", span.start, span.end)) {
    const db = leafText(xml, "Dbtag_db", dbtag.contentStart, dbtag.contentEnd);
    const value = leafText(xml, "Object-id_str", dbtag.contentStart, dbtag.contentEnd) ||
      leafText(xml, "Object-id_id", dbtag.contentStart, dbtag.contentEnd);
    out.push({ db, value });
  }
  return out;
}

/** The heading of a Gene-commentary itself, not of one nested inside it. */
function ownHeading(xml: string, commentary: Span): string {
  const type = findElement(xml, "Gene-commentary_type", commentary.contentStart, commentary.contentEnd);
  const next = xml.indexOf("<", type ? type.end : commentary.contentStart);
  return xml.startsWith("<Gene-commentary_heading>", next)
    ? leafText(xml, "Gene-commentary_heading", next, commentary.contentEnd)
    : "";
}

/** Placement on the first annotated assembly (NCBI lists the reference assembly first). */
function genomicLocation(xml: string, locus: Span): GenomicLocation | undefined {
  const placement = findElement(xml, "Gene-commentary", locus.contentStart, locus.contentEnd);
  if (!placement) return undefined;
  const accession = leafText(xml, "Gene-commentary_accession", placement.contentStart, placement.contentEnd);
  const interval = findElement(xml, "Seq-interval", placement.contentStart, placement.contentEnd);
  if (!accession || !interval) return undefined;
  const from = Number(leafText(xml, "Seq-interval_from", interval.contentStart, interval.contentEnd));
  const to = Number(leafText(xml, "Seq-interval_to", interval.contentStart, interval.contentEnd));
  if (!Number.isInteger(from) || !Number.isInteger(to)) return undefined;
  const strandSpan = findElement(xml, "Na-strand", interval.contentStart, interval.contentEnd);
  const strand = strandSpan ? attribute(xml, strandSpan, "value") : "";
  const version = leafText(xml, "Gene-commentary_version", placement.contentStart, interval.start);
  const heading = leafText(xml, "Gene-commentary_heading", placement.contentStart, interval.start);
  return {
    assembly: heading.replace(/^(Reference|Alternate)\s+/, "").replace(/\s+Primary Assembly$/, ""),
    accession: version ? `${accession}.${version}` : accession,
    start: from + 1,
    end: to + 1,
    strand: strand === "plus" || strand === "minus" ? strand : "unknown",
  };
}

function dbtags(node: XmlNode): Dbtag[] {
  return asArray(node.Dbtag as XmlNode[]).map((tag) => {
    const id = path(tag, "Dbtag_tag", "Object-id");
    return { db: text(tag["Dbtag_db"]), value: text(id["Object-id_str"]) || text(id["Object-id_id"]) };
  });
}

function path(node: unknown, ...names: string[]): XmlNode {
  let current = node;
  for (const name of names) {
    current = current && typeof current === "object" ? (current as XmlNode)[name] : undefined;
  }
  return current && typeof current === "object" ? current as XmlNode : {};
}

function attr(node: unknown, name: string): string {
  return node && typeof node === "object" ? text((node as XmlNode)[`@_${name}`]) : "";
}

export function firstSentence(summary: string): string {
  const match = summary.match(/^.{20,300}?[.;](?=\s|$)/);
  return match ? match[0] : summary.slice(0, 300);
}
