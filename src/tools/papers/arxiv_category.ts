/**
 * What a caller wrote for an arXiv category → one taxonomy entry. A code (`cs.LG`, any case) is taken as
 * it is; an exact category name that names one active category (`Computation and Language`) is resolved
 * with a warning; a name or archive that names several (`Machine Learning` is cs.LG and stat.ML, `cs` is
 * forty categories) is AMBIGUOUS_QUERY listing them, never silently picked; anything else is INVALID_INPUT
 * with the nearest names.
 */
import { invalidInput, ToolError } from "../../core/errors.ts";
import {
  ARXIV_CATEGORIES,
  type ArxivCategory,
  categoriesUnder,
  findArxivCategory,
} from "../../sources/arxiv/taxonomy.ts";
import type { Warning } from "./schemas.ts";

export function resolveArxivCategory(raw: string, field: string): { category: ArxivCategory; warnings: Warning[] } {
  const byCode = findArxivCategory(raw);
  if (byCode) return { category: byCode, warnings: [] };
  const name = raw.trim().toLowerCase();
  const named = ARXIV_CATEGORIES.filter((c) => c.name.toLowerCase() === name);
  const active = named.filter((c) => c.active);
  if (active.length === 1 || (active.length === 0 && named.length === 1)) {
    const category = active[0] ?? named[0];
    return {
      category,
      warnings: [{
        code: "CategoryResolved",
        message: `"${raw.trim()}" was resolved to arXiv category ${category.code} (${category.name}).`,
      }],
    };
  }
  const under = categoriesUnder(raw);
  const candidates = active.length > 1 ? active : under;
  if (candidates.length > 1) throw ambiguous(raw, field, candidates, active.length > 1 ? "name" : "archive");
  return unknown(raw, field);
}

function ambiguous(raw: string, field: string, candidates: ArxivCategory[], kind: "name" | "archive"): ToolError {
  const listed = candidates.slice(0, 12).map((c) => `${c.code} (${c.name})`);
  const more = candidates.length > listed.length ? `, … ${candidates.length - listed.length} more` : "";
  return new ToolError(
    "AMBIGUOUS_QUERY",
    kind === "name"
      ? `"${raw.trim()}" is the name of ${candidates.length} arXiv categories: ${listed.join(", ")}.`
      : `'${raw.trim()}' is an arXiv archive with ${candidates.length} categories: ${listed.join(", ")}${more}.`,
    `Pass one category code, e.g. ${field}="${candidates[0].code}" (list_categories source=arxiv shows all).`,
    { invalidInput: { field, value: raw } },
  );
}

/** Near misses get concrete suggestions: names that contain what was written. */
function unknown(raw: string, field: string): never {
  const byName = ARXIV_CATEGORIES.filter((c) => c.active && c.name.toLowerCase().includes(raw.trim().toLowerCase()))
    .slice(0, 5).map((c) => `${c.code} (${c.name})`);
  const hint = byName.length
    ? `Did you mean ${byName.join(", ")}?`
    : "Use an arXiv taxonomy code such as cs.LG or astro-ph.GA (list_categories source=arxiv shows all), " +
      "or source=openalex for OpenAlex topics.";
  throw invalidInput(field, "not an arXiv category code", raw, hint);
}
