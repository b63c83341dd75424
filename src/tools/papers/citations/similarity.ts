/**
 * How alike two bibliographic strings are, 0-1, after normalising case, accents and punctuation. Titles
 * take the better of an edit-distance ratio (robust to typos) and a word overlap (robust to a missing
 * subtitle or reordered words).
 */

/** Lower case, accents and punctuation removed, spaces collapsed. */
export function normalize(text: string): string {
  return text.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase().replace(/<[^>]+>/g, " ")
    .replace(/[^\p{L}\p{N}]+/gu, " ").trim();
}

/** 1 - edit distance / longer length. */
export function editRatio(a: string, b: string): number {
  if (a === b) return 1;
  if (!a.length || !b.length) return 0;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = row;
  }
  return 1 - prev[b.length] / Math.max(a.length, b.length);
}

/** Dice coefficient of the two word sets. */
export function wordOverlap(a: string, b: string): number {
  const x = new Set(a.split(" ").filter(Boolean));
  const y = new Set(b.split(" ").filter(Boolean));
  if (!x.size || !y.size) return 0;
  let common = 0;
  for (const w of x) if (y.has(w)) common++;
  return (2 * common) / (x.size + y.size);
}

/** Title similarity, 0-1 (titles over 400 characters are compared on their first 400). */
export function titleSimilarity(a: string, b: string): number {
  const x = normalize(a).slice(0, 400);
  const y = normalize(b).slice(0, 400);
  return Math.max(editRatio(x, y), wordOverlap(x, y));
}

/**
 * Whether a journal as a reference writes it names the record's journal: equal, or each word a prefix of
 * the record's words in order ("N Engl J Med" → "New England Journal of Medicine", "Lancet" → "The Lancet").
 */
export function sameJournal(given: string, ...names: (string | undefined)[]): boolean {
  const g = normalize(given).split(" ").filter((w) => !STOP.has(w));
  if (!g.length) return true;
  return names.some((name) => {
    if (!name) return false;
    const words = normalize(name).split(" ").filter((w) => !STOP.has(w));
    let i = 0;
    for (const w of words) if (i < g.length && w.startsWith(g[i])) i++;
    return i === g.length;
  });
}

const STOP = new Set(["the", "of", "and", "for", "in", "on", "a", "an", "de", "la"]);
