/**
 * Completion sources for prompt arguments and resource-template variables: values that can be listed
 * (arXiv categories, organisms, local PDF names, PubChem property names). Matches that start with what
 * was typed come first, then those that contain it; at most {@link MAX_COMPLETIONS} are returned, as MCP
 * requires. Each source's module is imported on the first completion that needs it, not at start.
 */
import { onDemand } from "../core/on_demand.ts";
import type { Completer } from "./prompt_def.ts";

/** MCP: `values` must not exceed 100 items. */
export const MAX_COMPLETIONS = 100;

export interface Completion {
  [key: string]: unknown;
  values: string[];
  total: number;
  hasMore: boolean;
}

/**
 * @example rank(["cs.AI", "cs.LG", "stat.ML"], "ml") // ["stat.ML"]
 */
export function rank(values: readonly string[], typed: string): string[] {
  const needle = typed.trim().toLowerCase();
  const starts = values.filter((v) => v.toLowerCase().startsWith(needle));
  const contains = values.filter((v) => !v.toLowerCase().startsWith(needle) && v.toLowerCase().includes(needle));
  return [...new Set([...starts, ...contains])];
}

export function capped(values: string[]): Completion {
  return { values: values.slice(0, MAX_COMPLETIONS), total: values.length, hasMore: values.length > MAX_COMPLETIONS };
}

/** Active arXiv category codes (cs.LG, astro-ph.GA, ...); a name typed ("machine") finds its codes too. */
export const arxivCategories: Completer = async (typed) => {
  const { ARXIV_CATEGORIES } = await onDemand<typeof import("../sources/arxiv/taxonomy.ts")>(
    "sources/arxiv/taxonomy.ts",
  );
  const active = ARXIV_CATEGORIES.filter((c) => c.active);
  const byCode = rank(active.map((c) => c.code), typed);
  const needle = typed.trim().toLowerCase();
  const byName = needle.length > 2
    ? active.filter((c) => c.name.toLowerCase().includes(needle)).map((c) => c.code)
    : [];
  return [...new Set([...byCode, ...byName])];
};

/** Organism names search_genes knows without a lookup: common names first, then scientific names. */
export const organisms: Completer = async (typed) => {
  const { KNOWN_ORGANISMS } = await onDemand<typeof import("../sources/ncbi/gene/organisms.ts")>(
    "sources/ncbi/gene/organisms.ts",
  );
  const names = KNOWN_ORGANISMS.flatMap((o) => [o.names[0], o.scientificName]);
  return rank([...new Set(names)], typed);
};

/** PDF names in PDF_ROOT (what search_pdf's pdf_name takes). */
export const pdfNames: Completer = async (typed, ctx) => {
  const { listPdfFiles } = await onDemand<typeof import("../sources/pdf/pdf_files.ts")>("sources/pdf/pdf_files.ts");
  const { files } = await listPdfFiles(ctx.config.pdf.root).catch(() => ({ files: [] }));
  return rank(files.map((f) => f.name), typed);
};

/**
 * PubChem property names; in a comma-separated list only the last item is completed, and each value
 * carries the items before it, so picking one keeps the list.
 */
export const pubchemProperties: Completer = async (typed) => {
  const { COMPOUND_PROPERTIES } = await onDemand<typeof import("../sources/pubchem/types.ts")>(
    "sources/pubchem/types.ts",
  );
  const parts = typed.split(",");
  const last = parts.pop() ?? "";
  const chosen = parts.map((p) => p.trim()).filter(Boolean);
  const prefix = chosen.length ? `${chosen.join(",")},` : "";
  return rank(COMPOUND_PROPERTIES.filter((p) => !chosen.includes(p)), last).map((p) => prefix + p);
};

/** The two paper sources. */
export const paperSources: Completer = (typed) => rank(["openalex", "arxiv"], typed);
