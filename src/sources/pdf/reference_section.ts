/**
 * A paper's reference list, found by its heading, so that ranked (words) searches put its passages below
 * body text (#34): reference titles pack a question's words ("low-dose heparin … prophylaxis … trauma"),
 * so they outrank the sentences that answer it.
 */
import type { PassageSpan } from "./passages.ts";

/** A heading line that opens a reference list: "References", "7. REFERENCES", "Bibliography", … */
const HEADING =
  /^[^\S\n]*(?:(?:\d{1,2}|[IVXL]{1,5})\.?[^\S\n]+)?(?:references(?: and notes| cited)?|bibliography|literature cited|works cited|cited literature)[^\S\n]*:?[^\S\n]*$/gimu;

/** A heading that ends a reference list: an appendix or supplement after it. */
const AFTER = /^[^\S\n]*(?:[A-Z]\.?[^\S\n]+)?(?:appendix|appendices|supplementary|supplemental)\b[^\n]{0,80}$/gimu;

/** Entries look like references: numbered ([1], 1.) or carrying a year, several times soon after the heading. */
const ENTRY = /(?:^[^\S\n]*(?:\[\d{1,3}\]|\d{1,3}\.)[^\S\n])|\b(?:19|20)\d{2}[a-z]?\b/gmu;
const LOOK_AHEAD = 1_500;
const MIN_ENTRIES = 3;

/**
 * `[start, end)` of the reference list: from the last reference heading followed by reference-like entries
 * to the next appendix heading or the end of the text; undefined when there is none.
 * @example referenceSection("Intro\nheparin\nReferences\n1. A 2001.\n2. B 2002.\n3. C 2003.") // [15, 55]
 */
export function referenceSection(text: string): [number, number] | undefined {
  let start: number | undefined;
  for (const heading of text.matchAll(HEADING)) {
    const after = text.slice(heading.index + heading[0].length, heading.index + heading[0].length + LOOK_AHEAD);
    if ((after.match(ENTRY) ?? []).length >= MIN_ENTRIES) start = heading.index;
  }
  if (start === undefined) return undefined;
  AFTER.lastIndex = start;
  const end = AFTER.exec(text)?.index ?? text.length;
  return [start, end];
}

/** Ranked passages with those in the reference list marked and moved after the rest, each group in order. */
export function belowReferences(text: string, passages: PassageSpan[]): PassageSpan[] {
  const section = referenceSection(text);
  if (!section) return passages;
  const [start, end] = section;
  // By its first hit: a window may open a little before the heading.
  for (const p of passages) {
    const at = p.hits[0]?.start ?? p.start;
    if (at >= start && at < end) p.inReferences = true;
  }
  return [...passages.filter((p) => !p.inReferences), ...passages.filter((p) => p.inReferences)];
}
