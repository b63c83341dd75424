/**
 * Mock upstream routes for NCBI Gene: ESearch/ESummary/EFetch db=gene, ELink dbfrom=gene and the
 * db=taxonomy lookups behind the `organism` filter, answered from fixtures/ncbi/gene (see its PROVENANCE).
 *
 * Answers are cut from the fixtures the way NCBI would cut them: an ESearch page honours retstart/retmax,
 * ESummary returns the requested ids in order (per-uid `<error>` for unknown ones), EFetch returns the
 * one requested record out of the recorded 4-gene set. Requests for other databases fall through.
 */
import { fixtureText, type MockRequest, type MockRoute } from "./types.ts";

const DIR = "ncbi/gene/";
const XML = { "content-type": "text/xml; charset=UTF-8" };
const RECORDED_SET = "biocommons__entrezgeneset-4-genes.xml.gz";
const RECORDED_SET_IDS = ["348", "7124", "7157", "105694156"];

/** ESearch db=gene fixtures by a word of the term; the first match wins, else the empty answer. */
const GENE_SEARCHES: [RegExp, string][] = [
  [/brca1.*txid9606/i, "esearch_gene_brca1_human.built.xml"],
  [/brca1/i, "esearch_gene_brca1.built.xml"],
  [/tp53/i, "esearch_gene_tp53_human.built.xml"],
  [/nefl/i, "esearch_gene_nefl_human.built.xml"],
  [/tumou?r suppressor/i, "esearch_gene_tumor_suppressor_human.built.xml"],
];
const PUBMED_LINKS: Record<string, string> = {
  "7157": "elink_gene_pubmed_7157.built.xml",
  "4747": "elink_gene_pubmed_4747.built.xml",
};

export const geneRoutes: MockRoute[] = [
  {
    prefix: "ncbi",
    name: "gene esearch",
    handle: (req) => matches(req, "/esearch.fcgi", "db", "gene") ? xml(geneSearch(req)) : undefined,
  },
  {
    prefix: "ncbi",
    name: "taxonomy esearch",
    handle: (req) =>
      matches(req, "/esearch.fcgi", "db", "taxonomy")
        ? xml(
          fixtureText(
            DIR + (/ornithorhynchus anatinus|platypus/i.test(req.params.get("term") ?? "")
              ? "esearch_taxonomy_platypus.built.xml"
              : "esearch_taxonomy_empty.built.xml"),
          ),
        )
        : undefined,
  },
  {
    prefix: "ncbi",
    name: "gene esummary",
    handle: (req) => matches(req, "/esummary.fcgi", "db", "gene") ? xml(geneSummaries(ids(req))) : undefined,
  },
  {
    prefix: "ncbi",
    name: "taxonomy esummary",
    handle: (req) => {
      if (!matches(req, "/esummary.fcgi", "db", "taxonomy")) return undefined;
      const id = ids(req)[0] ?? "";
      if (id === "9685") return xml(fixtureText(DIR + "eutilsjson__esummary.taxonomy.xml"));
      return xml(fixtureText(DIR + "esummary_taxonomy_unknown.built.xml").replace('uid="999999999"', `uid="${id}"`));
    },
  },
  {
    prefix: "ncbi",
    name: "gene efetch",
    handle: async (req) =>
      matches(req, "/efetch.fcgi", "db", "gene") ? xml(await geneRecord(ids(req)[0] ?? "")) : undefined,
  },
  {
    prefix: "ncbi",
    name: "gene elink",
    handle: (req) => {
      if (!matches(req, "/elink.fcgi", "dbfrom", "gene")) return undefined;
      const id = ids(req)[0] ?? "";
      const file = PUBMED_LINKS[id];
      if (file) return xml(fixtureText(DIR + file));
      return xml(fixtureText(DIR + "elink_gene_pubmed_none.built.xml").replace("<Id>105694156</Id>", `<Id>${id}</Id>`));
    },
  },
];

function matches(req: MockRequest, path: string, param: string, value: string): boolean {
  return req.path === path && req.params.get(param) === value;
}

function ids(req: MockRequest): string[] {
  return (req.params.get("id") ?? "").split(",").map((s) => s.trim()).filter(Boolean);
}

function xml(body: string): Response {
  return new Response(body, { headers: XML });
}

/** The fixture for the term, cut to the requested page as ESearch does. */
function geneSearch(req: MockRequest): string {
  const term = req.params.get("term") ?? "";
  const file = GENE_SEARCHES.find(([pattern]) => pattern.test(term))?.[1] ?? "esearch_gene_empty.built.xml";
  const body = fixtureText(DIR + file);
  const all = [...body.matchAll(/<Id>(\d+)<\/Id>/g)].map((m) => m[1]);
  if (all.length === 0) return body;
  const start = Number(req.params.get("retstart") ?? 0);
  const max = Number(req.params.get("retmax") ?? 20);
  const page = all.slice(start, start + max);
  return body
    .replace(/<RetMax>\d+<\/RetMax>/, `<RetMax>${page.length}</RetMax>`)
    .replace(/<RetStart>\d+<\/RetStart>/, `<RetStart>${start}</RetStart>`)
    .replace(/<IdList>[\s\S]*<\/IdList>/, `<IdList>\n${page.map((id) => `<Id>${id}</Id>\n`).join("")}</IdList>`);
}

let summaryBlocks: Map<string, string> | undefined;

/** The requested DocumentSummary blocks, in request order; unknown ids get NCBI's per-uid error. */
function geneSummaries(requested: string[]): string {
  const built = fixtureText(DIR + "esummary_gene.built.xml");
  summaryBlocks ??= new Map(
    [built, fixtureText(DIR + "eutilsjson__esummary.gene.xml")].flatMap((text) =>
      [...text.matchAll(/<DocumentSummary uid="(\d+)">[\s\S]*?<\/DocumentSummary>/g)].map((m) => [m[1], m[0]])
    ),
  );
  const head = built.slice(0, built.indexOf("<DocumentSummary "));
  const blocks = requested.map((id) =>
    summaryBlocks!.get(id) ??
      `<DocumentSummary uid="${id}">\n\t<error>cannot get document summary</error>\n</DocumentSummary>`
  );
  return `${head}${blocks.join("\n\n")}\n\n</DocumentSummarySet>\n</eSummaryResult>\n`;
}

let recordedSet: Promise<string> | undefined;

/** EFetch for one gene id: NEFL's own recording, one record of the recorded set, or an empty set. */
async function geneRecord(id: string): Promise<string> {
  if (id === "4747") return fixtureText(DIR + "biocommons__gene_4747_2014.xml");
  if (!RECORDED_SET_IDS.includes(id)) return fixtureText(DIR + "efetch_gene_not_found.built.xml");
  recordedSet ??= gunzip(new URL(`../../fixtures/${DIR}${RECORDED_SET}`, import.meta.url));
  const set = await recordedSet;
  const marker = `<Gene-track_geneid>${id}</Gene-track_geneid>`;
  const start = set.lastIndexOf("<Entrezgene>", set.indexOf(marker));
  const end = set.indexOf("</Entrezgene>", start) + "</Entrezgene>".length;
  const head = set.slice(0, set.indexOf("<Entrezgene>"));
  return `${head}${set.slice(start, end)}\n</Entrezgene-Set>\n`;
}

async function gunzip(url: URL): Promise<string> {
  const file = await Deno.open(url);
  return await new Response(file.readable.pipeThrough(new DecompressionStream("gzip"))).text();
}
