/**
 * PMID inputs. Callers pass bare numbers ("31452104") or CURIEs ("PMID:31452104", what the gene toolset
 * returns); both normalise to the bare digits NCBI expects.
 */
import { z } from "../../core/zod.ts";

/** No `i` flag: JSON Schema patterns carry no flags, so the case-insensitivity is spelled out. */
const PMID_PATTERN = /^\s*(?:[Pp][Mm][Ii][Dd]\s*:\s*)?(\d{1,10})\s*$/;

/** `"PMID:123"`, `" 123 "` and `123` → `"123"`; anything else fails validation. */
export const pmidSchema = z.union([
  z.string().regex(PMID_PATTERN, 'a PMID is digits, optionally prefixed "PMID:" (e.g. "31452104")'),
  z.number().int().positive().max(9_999_999_999),
]).transform((value) => String(value).replace(PMID_PATTERN, "$1").replace(/^0+(?=\d)/, ""));

export { pubmedUrl } from "../../sources/ncbi/pubmed/url.ts";

/** Removes duplicates, keeping the first occurrence's position. */
export function unique<T>(values: readonly T[]): T[] {
  return [...new Set(values)];
}
