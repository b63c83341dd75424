/** Test helper: recorded PubMed EFetch fixtures, parsed, looked up by PMID. */
import { parseEFetchPubMed } from "../../../../src/sources/ncbi/pubmed/parse_efetch.ts";
import type { PubMedArticle } from "../../../../src/sources/ncbi/pubmed/types.ts";
import { fixture } from "../../../helpers/runtime.ts";

export const PUBMED_FIXTURE_DIR = new URL("../../../../fixtures/ncbi/pubmed/", import.meta.url);

/** Every recorded EFetch XML file in fixtures/ncbi/pubmed. */
export function pubmedXmlFixtures(): string[] {
  return [...Deno.readDirSync(PUBMED_FIXTURE_DIR)].map((e) => e.name).filter((n) => n.endsWith(".xml")).sort();
}

export function parseFixture(name: string): PubMedArticle[] {
  return parseEFetchPubMed(fixture(`ncbi/pubmed/${name}`), `fixture:${name}`);
}

/** The record `pmid` from fixture `name`; throws when absent so a test cannot pass vacuously. */
export function article(name: string, pmid: string): PubMedArticle {
  const found = parseFixture(name).find((a) => a.pmid === pmid);
  if (!found) throw new Error(`PMID ${pmid} not in ${name}`);
  return found;
}
