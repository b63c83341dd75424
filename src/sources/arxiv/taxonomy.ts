/** Lookups over the shipped arXiv taxonomy ({@link ARXIV_CATEGORY_ROWS}); no network. */
import { ARXIV_CATEGORY_ROWS, ARXIV_GROUP_ROWS } from "./taxonomy_data.ts";

export interface ArxivCategory {
  code: string;
  name: string;
  group: string;
  groupName: string;
  /** False for retired codes (e.g. `cmp-lg`): the API still finds their old papers, nothing new. */
  active: boolean;
}

const GROUP_NAMES = new Map(ARXIV_GROUP_ROWS.map(([id, name]) => [id, name]));

export const ARXIV_CATEGORIES: readonly ArxivCategory[] = ARXIV_CATEGORY_ROWS.map(([code, name, group, active]) => ({
  code,
  name,
  group,
  groupName: GROUP_NAMES.get(group) ?? group,
  active,
}));

const BY_CODE = new Map(ARXIV_CATEGORIES.map((c) => [c.code.toLowerCase(), c]));

/** Case-insensitive lookup: `cs.lg` finds `cs.LG`. */
export function findArxivCategory(code: string): ArxivCategory | undefined {
  return BY_CODE.get(code.trim().toLowerCase());
}

export function arxivGroups(): { id: string; name: string }[] {
  return ARXIV_GROUP_ROWS.map(([id, name]) => ({ id, name }));
}

/** Active categories of an archive or group (`cs` → cs.AI, cs.AR, ...), for hints on near misses. */
export function categoriesUnder(prefix: string): ArxivCategory[] {
  const p = prefix.trim().toLowerCase();
  return ARXIV_CATEGORIES.filter((c) => c.active && (c.group === p || c.code.toLowerCase().startsWith(p + ".")));
}
