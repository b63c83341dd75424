/**
 * A paper's outline: the `#`-headed sections of its text (levels 2 and 3; the level-1 title is the paper
 * itself) with the offset where each starts and its length, so a caller can read one section instead of
 * paging through the whole text. A section runs to the next heading of the same or a higher level.
 */

export interface OutlineEntry {
  /** 1-based number, what `section` takes. */
  n: number;
  level: number;
  heading: string;
  offset: number;
  chars: number;
}

/** Most entries listed: a thesis can have hundreds of subsections. */
export const MAX_OUTLINE = 60;
/** Above this many entries, only the level-2 sections are listed (their numbers stay the same). */
export const FULL_OUTLINE = 25;

const HEADING = /^(#{1,6}) +(\S.*)$/gm;

/** @example outline("# T\n\n## Intro\n\nx\n\n## Methods\n\ny")[0] // { n: 1, level: 2, heading: "Intro", offset: 5, chars: 13 } */
export function outline(text: string): OutlineEntry[] {
  const heads = [...text.matchAll(HEADING)].map((m) => ({ level: m[1].length, heading: m[2].trim(), offset: m.index! }))
    .filter((h) => h.level >= 2 && h.level <= 3);
  return heads.map((h, i) => {
    const next = heads.slice(i + 1).find((o) => o.level <= h.level);
    const end = next?.offset ?? text.length;
    return { n: i + 1, level: h.level, heading: h.heading, offset: h.offset, chars: end - h.offset };
  });
}

/** The outline as shown on the first page: every entry when few, else the top-level sections only. */
export function shownOutline(entries: OutlineEntry[]): OutlineEntry[] {
  const shown = entries.length > FULL_OUTLINE ? entries.filter((e) => e.level === 2) : entries;
  return shown.slice(0, MAX_OUTLINE);
}

/**
 * The entry `wanted` names: its number, its heading (case-insensitive), or the one heading that begins
 * with it; undefined when none or several match.
 */
export function findSection(entries: OutlineEntry[], wanted: string): OutlineEntry | undefined {
  const w = wanted.trim().toLowerCase();
  if (/^\d+$/.test(w)) return entries.find((e) => e.n === Number(w));
  const exact = entries.filter((e) => e.heading.toLowerCase() === w);
  if (exact.length) return exact[0];
  const loose = entries.filter((e) => e.heading.toLowerCase().replace(/^[\d.\s]+/, "").startsWith(w));
  return loose.length === 1 ? loose[0] : undefined;
}
