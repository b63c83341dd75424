/**
 * Pieces of PubMed records the CSL mapping needs: MEDLINE page ranges written in full, and NLM catalogue
 * journal titles as the name styles cite. Pure functions.
 */

export interface PageRange {
  start: string;
  end?: string;
}

/**
 * MEDLINE abbreviates page ranges ("332-40" means 332 to 340); this gives both ends in full. Ranges
 * that are not plain numbers ("1016-1021.e6", "e1-8") keep their tokens as written.
 */
export function pageRange(pages: string | undefined): PageRange | undefined {
  if (!pages) return undefined;
  const first = pages.split(/[;,]/)[0].trim();
  const m = /^(\w[\w.]*)\s*[-–]\s*(\w[\w.]*)$/.exec(first);
  if (!m) return first ? { start: first } : undefined;
  const [, start, end] = m;
  if (/^\d+$/.test(start) && /^\d+$/.test(end) && end.length < start.length) {
    return { start, end: start.slice(0, start.length - end.length) + end };
  }
  return { start, end };
}

const MINOR_WORDS = new Set([
  "a",
  "an",
  "and",
  "as",
  "at",
  "but",
  "by",
  "de",
  "der",
  "des",
  "du",
  "et",
  "for",
  "from",
  "in",
  "la",
  "le",
  "nor",
  "of",
  "on",
  "or",
  "the",
  "to",
  "und",
  "via",
  "with",
]);

/**
 * NLM catalogue titles ("The American psychologist", "Social justice (San Francisco, Calif.)",
 * "Tidsskrift for den Norske laegeforening : tidsskrift for praktisk medicin, ny raekke") → the journal
 * name styles cite: place qualifier and subtitle removed, then title case.
 */
export function journalName(raw: string): string {
  const base = raw.split(" : ")[0].replace(/\s*\([^)]*\)\s*$/, "").replace(/[.\s]+$/, "").trim();
  return titleCase(base);
}

function titleCase(text: string): string {
  return text.split(" ").map((word, i) => {
    if (!word || /\p{Lu}/u.test(word.slice(1)) || /\d/.test(word)) return word;
    if (i > 0 && MINOR_WORDS.has(word.toLowerCase())) return word.toLowerCase();
    return word[0].toUpperCase() + word.slice(1);
  }).join(" ");
}
