/**
 * Leniency and hints for the arguments a model sends (#21): an integer id written as a numeric string
 * (`"2244"`) is taken as the number; a misspelt argument name is answered with the closest real one; a PMCID
 * or DOI sent where a PMID belongs points to the tools that take it. parseArguments applies them for every
 * tool, so no tool repeats them.
 */
import { inputJsonSchema } from "./json_schema.ts";
import type { AnyToolDef } from "./tool_def.ts";

type Property = { type?: string | string[]; items?: Property; anyOf?: Property[] };

const NUMERIC = /^\s*-?\d+(\.\d+)?\s*$/;

/**
 * `args` with numeric strings turned into numbers where the tool's schema takes a number and never a string
 * (top-level fields and lists of numbers); the same object when there is nothing to turn.
 * @example coerceNumericStrings(fetchCompoundSafety, { cid: "2244" }) // { cid: 2244 }
 */
export function coerceNumericStrings(def: AnyToolDef, args: unknown): unknown {
  if (!args || typeof args !== "object" || Array.isArray(args)) return args;
  // Most calls carry no numeric string at all: they need not convert the tool's schema (a few ms on a first call).
  if (!Object.values(args).some(numericString)) return args;
  const properties = (inputJsonSchema(def).properties ?? {}) as Record<string, Property>;
  let out: Record<string, unknown> | undefined;
  for (const [key, value] of Object.entries(args)) {
    if (!Object.hasOwn(properties, key)) continue;
    const turned = turn(properties[key], value);
    if (turned === value) continue;
    out ??= { ...args as Record<string, unknown> };
    out[key] = turned;
  }
  return out ?? args;
}

/** A numeric string, or a list holding one. */
function numericString(value: unknown): boolean {
  return typeof value === "string" ? NUMERIC.test(value) : Array.isArray(value) && value.some(numericString);
}

function turn(schema: Property, value: unknown): unknown {
  if (typeof value === "string" && takesOnlyNumber(schema) && NUMERIC.test(value)) return Number(value);
  if (Array.isArray(value) && schema.items && takesOnlyNumber(schema.items)) {
    const turned = value.map((v) => typeof v === "string" && NUMERIC.test(v) ? Number(v) : v);
    return turned.some((v, i) => v !== value[i]) ? turned : value;
  }
  return value;
}

function takesOnlyNumber(schema: Property): boolean {
  const types = new Set<string>();
  const add = (s: Property) => {
    [s.type ?? []].flat().forEach((t) => types.add(t));
    s.anyOf?.forEach(add);
  };
  add(schema);
  return types.size > 0 && [...types].every((t) => t === "integer" || t === "number");
}

/** Argument names that mean "how many" across tools and APIs. */
const COUNT_NAMES = new Set([
  "limit",
  "count",
  "max",
  "n",
  "size",
  "max_results",
  "maxresults",
  "maxrecords",
  "max_records",
  "page_size",
  "pagesize",
  "per_page",
  "topk",
  "top_k",
  "num_results",
  "results",
]);

/**
 * The real argument a misspelt or foreign name most likely means: the same name in another case or
 * spelling (`max_results` → `maxResults`), the tool's one count argument for a count synonym (`limit` →
 * `maxResults`), or the nearest name by edit distance.
 * @example closestArgument("limit", ["queryTerm", "maxResults", "offset"]) // "maxResults"
 */
export function closestArgument(name: string, known: readonly string[]): string | undefined {
  const squash = (s: string) => s.toLowerCase().replace(/[_-]/g, "");
  const same = known.find((k) => squash(k) === squash(name));
  if (same) return same;
  if (COUNT_NAMES.has(name.toLowerCase())) {
    const counts = known.filter((k) => COUNT_NAMES.has(k.toLowerCase()) || /^max[A-Z_]|count$/i.test(k));
    if (counts.length === 1) return counts[0];
  }
  let best: string | undefined;
  let bestDistance = Math.max(2, Math.floor(name.length / 3)) + 1;
  for (const k of known) {
    const d = editDistance(squash(name), squash(k));
    if (d < bestDistance) [best, bestDistance] = [k, d];
  }
  return best;
}

/** Levenshtein distance between two strings. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = row;
  }
  return previous[b.length];
}

/**
 * The hint for an article id of the wrong kind in a PMID field: a PMCID or DOI is converted by
 * convert_article_ids and read by fetch_content.
 */
export function wrongArticleIdHint(field: string, value: unknown): string | undefined {
  if (!/pmid/i.test(field) || typeof value !== "string") return undefined;
  const kind = /^\s*PMC\d+\s*$/i.test(value)
    ? "a PMCID"
    : /^\s*(doi:\s*|https?:\/\/(dx\.)?doi\.org\/)?10\.\d{4,9}\/\S+\s*$/i.test(value)
    ? "a DOI"
    : undefined;
  if (!kind) return undefined;
  const id = JSON.stringify(value.trim());
  return `${id} is ${kind}, not a PMID: get its PMID with convert_article_ids {"ids":[${id}]}, or read the ` +
    `article with fetch_content {"source":"pubmed","id":${id}}.`;
}
