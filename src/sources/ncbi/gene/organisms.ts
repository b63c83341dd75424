/**
 * Common and scientific names of the organisms people ask NCBI Gene about, with their NCBI Taxonomy ids.
 * Looked up before any request: the names here cost nothing; anything else is checked against NCBI
 * Taxonomy (see organism.ts). Ids are species (or genus, for "frog"/"xenopus") nodes: the gene filter
 * uses `txid<id>[Organism:exp]`, which also covers the strains NCBI files genes under (yeast genes
 * live under S288C, 559292; E. coli genes under K-12 MG1655, 511145).
 */
export interface KnownOrganism {
  taxonId: string;
  scientificName: string;
  /** Lower-case names a caller may use, besides the scientific name. */
  names: string[];
}

export const KNOWN_ORGANISMS: readonly KnownOrganism[] = [
  { taxonId: "9606", scientificName: "Homo sapiens", names: ["human", "humans", "man", "h. sapiens", "hsa"] },
  { taxonId: "10090", scientificName: "Mus musculus", names: ["mouse", "mice", "house mouse", "m. musculus", "mmu"] },
  { taxonId: "10116", scientificName: "Rattus norvegicus", names: ["rat", "norway rat", "brown rat", "r. norvegicus"] },
  { taxonId: "7955", scientificName: "Danio rerio", names: ["zebrafish", "zebra fish", "d. rerio"] },
  {
    taxonId: "7227",
    scientificName: "Drosophila melanogaster",
    names: ["fly", "fruit fly", "fruitfly", "drosophila", "d. melanogaster"],
  },
  {
    taxonId: "6239",
    scientificName: "Caenorhabditis elegans",
    names: ["worm", "nematode", "roundworm", "c. elegans", "c elegans"],
  },
  {
    taxonId: "4932",
    scientificName: "Saccharomyces cerevisiae",
    names: ["yeast", "budding yeast", "baker's yeast", "brewer's yeast", "s. cerevisiae"],
  },
  { taxonId: "4896", scientificName: "Schizosaccharomyces pombe", names: ["fission yeast", "s. pombe", "pombe"] },
  { taxonId: "9031", scientificName: "Gallus gallus", names: ["chicken", "chick", "g. gallus"] },
  { taxonId: "8353", scientificName: "Xenopus", names: ["frog", "clawed frog"] },
  { taxonId: "8355", scientificName: "Xenopus laevis", names: ["african clawed frog", "x. laevis"] },
  { taxonId: "8364", scientificName: "Xenopus tropicalis", names: ["western clawed frog", "x. tropicalis"] },
  { taxonId: "9615", scientificName: "Canis lupus familiaris", names: ["dog", "canine", "c. familiaris"] },
  { taxonId: "9913", scientificName: "Bos taurus", names: ["cow", "cattle", "bovine", "b. taurus"] },
  { taxonId: "9823", scientificName: "Sus scrofa", names: ["pig", "swine", "porcine", "s. scrofa"] },
  { taxonId: "9940", scientificName: "Ovis aries", names: ["sheep", "ovine"] },
  { taxonId: "9925", scientificName: "Capra hircus", names: ["goat"] },
  { taxonId: "9796", scientificName: "Equus caballus", names: ["horse", "equine"] },
  { taxonId: "9986", scientificName: "Oryctolagus cuniculus", names: ["rabbit"] },
  { taxonId: "10141", scientificName: "Cavia porcellus", names: ["guinea pig"] },
  { taxonId: "10029", scientificName: "Cricetulus griseus", names: ["chinese hamster", "hamster"] },
  {
    taxonId: "9544",
    scientificName: "Macaca mulatta",
    names: ["rhesus macaque", "rhesus monkey", "rhesus", "macaque"],
  },
  { taxonId: "9598", scientificName: "Pan troglodytes", names: ["chimpanzee", "chimp"] },
  { taxonId: "9483", scientificName: "Callithrix jacchus", names: ["marmoset", "common marmoset"] },
  { taxonId: "13616", scientificName: "Monodelphis domestica", names: ["opossum", "gray short-tailed opossum"] },
  { taxonId: "59729", scientificName: "Taeniopygia guttata", names: ["zebra finch"] },
  { taxonId: "8090", scientificName: "Oryzias latipes", names: ["medaka", "japanese medaka"] },
  {
    taxonId: "3702",
    scientificName: "Arabidopsis thaliana",
    names: ["arabidopsis", "thale cress", "mouse-ear cress", "a. thaliana"],
  },
  { taxonId: "4530", scientificName: "Oryza sativa", names: ["rice", "asian rice"] },
  { taxonId: "4577", scientificName: "Zea mays", names: ["maize", "corn"] },
  { taxonId: "4081", scientificName: "Solanum lycopersicum", names: ["tomato"] },
  { taxonId: "7165", scientificName: "Anopheles gambiae", names: ["mosquito", "malaria mosquito", "a. gambiae"] },
  { taxonId: "7460", scientificName: "Apis mellifera", names: ["honey bee", "honeybee", "bee"] },
  {
    taxonId: "44689",
    scientificName: "Dictyostelium discoideum",
    names: ["dictyostelium", "slime mold", "slime mould", "d. discoideum"],
  },
  { taxonId: "5833", scientificName: "Plasmodium falciparum", names: ["malaria parasite", "p. falciparum"] },
  { taxonId: "562", scientificName: "Escherichia coli", names: ["e. coli", "e.coli", "ecoli", "e coli"] },
  { taxonId: "1423", scientificName: "Bacillus subtilis", names: ["b. subtilis"] },
  { taxonId: "1773", scientificName: "Mycobacterium tuberculosis", names: ["m. tuberculosis", "mtb"] },
  {
    taxonId: "2697049",
    scientificName: "Severe acute respiratory syndrome coronavirus 2",
    names: ["sars-cov-2", "sars cov 2", "covid-19 virus"],
  },
  { taxonId: "11676", scientificName: "Human immunodeficiency virus 1", names: ["hiv", "hiv-1", "hiv1"] },
];

const BY_NAME = new Map<string, KnownOrganism>(
  KNOWN_ORGANISMS.flatMap((o) => [o.scientificName.toLowerCase(), ...o.names].map((n) => [n, o] as const)),
);
const BY_TAXON = new Map<string, KnownOrganism>(KNOWN_ORGANISMS.map((o) => [o.taxonId, o]));

/** The table entry for a name (any case, extra spaces ignored) or a taxon id, if there is one. */
export function knownOrganism(nameOrTaxon: string): KnownOrganism | undefined {
  const key = nameOrTaxon.trim().toLowerCase().replace(/\s+/g, " ");
  return BY_NAME.get(key) ?? BY_TAXON.get(key);
}
