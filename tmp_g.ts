import { parseGeneRecord } from "./src/sources/ncbi/gene/parse_efetch_gene.ts";
const gz = Deno.readFileSync("fixtures/ncbi/gene/biocommons__entrezgeneset-4-genes.xml.gz");
const xml4 = new TextDecoder().decode(await new Response(new Blob([gz]).stream().pipeThrough(new DecompressionStream("gzip"))).arrayBuffer());
const ids = [...xml4.matchAll(/<Gene-track_geneid>(\d+)</g)].map((m) => m[1]);
console.log(ids);
for (const id of ids) { const r = parseGeneRecord(xml4, id, "u"); console.log(id, r?.symbol, JSON.stringify(r?.crossReferences)); }
const x = Deno.readTextFileSync("fixtures/ncbi/gene/biocommons__gene_4747_2014.xml");
console.log(JSON.stringify(parseGeneRecord(x, "4747", "u")?.crossReferences));
