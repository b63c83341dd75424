/** Fixture access for the gene parser tests: the recorded 4-gene EFetch set is kept gzipped. */
import { fixture } from "../../../helpers/runtime.ts";

let recordedSet: Promise<string> | undefined;

/** EFetch db=gene for APOE, TNF, TP53 and ERVW-28 (2017), 26 MB once expanded. */
export function recordedGeneSet(): Promise<string> {
  recordedSet ??= (async () => {
    const file = await Deno.open(
      new URL("../../../../fixtures/ncbi/gene/biocommons__entrezgeneset-4-genes.xml.gz", import.meta.url),
    );
    return await new Response(file.readable.pipeThrough(new DecompressionStream("gzip"))).text();
  })();
  return recordedSet;
}

/** EFetch db=gene id=4747 (NEFL), ~2014. */
export function recordedNefl(): string {
  return fixture("ncbi/gene/biocommons__gene_4747_2014.xml");
}

export const EFETCH_URL = "https://eutils.ncbi.nlm.nih.gov/entrez/eutils/efetch.fcgi?db=gene&id=7157&retmode=xml";
