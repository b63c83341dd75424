/** The canonical PubMed page of an article (sources and tools link to it). */
export function pubmedUrl(pmid: string): string {
  return `https://pubmed.ncbi.nlm.nih.gov/${pmid}/`;
}
