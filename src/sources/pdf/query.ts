/**
 * What a PDF query asks for. A single word or a "quoted phrase" is an exact (folded) match, as the seed
 * specified; several unquoted words are a question in natural language, whose passages are ranked by the
 * words they contain (rank.ts), since a sentence almost never occurs verbatim in a paper.
 */
import { normalizeQuery } from "./normalize.ts";

export type PdfQuery =
  | { mode: "phrase"; phrase: string }
  | { mode: "words"; phrase: string; words: QueryWord[] };

export interface QueryWord {
  /** The word as folded text (normalize.ts). */
  word: string;
  /** What a matching text word starts with: the word without a common inflection. */
  stem: string;
}

/** Quote pairs a phrase may be wrapped in. */
const QUOTES: [string, string][] = [['"', '"'], ["\u201C", "\u201D"], ["\u201E", "\u201C"], ["'", "'"]];

/** Function words that say nothing about a passage (English: the language of nearly every paper). */
const STOPWORDS = new Set(
  ("a an and are as at be been but by can could did do does for from had has have how i if in into is it its " +
    "may me might my no not of on or our should so such than that the their them then there these they this " +
    "those to was we were what when where which while who whom why will with would you your about any all also " +
    "between both each more most other over some use used using very").split(" "),
);

/** Endings dropped to find a stem, longest first ("dosing" and "doses" both start with "dos"). */
const ENDINGS = ["ations", "ation", "ings", "ing", "ies", "ied", "es", "ed", "ly", "s", "e"];
/** Shortest stem an ending may leave. */
const MIN_STEM = 3;

/** Parses a query; a query that folds to nothing is a phrase that matches nothing. */
export function parseQuery(query: string): PdfQuery {
  const trimmed = query.trim();
  for (const [open, close] of QUOTES) {
    if (trimmed.length > 2 && trimmed.startsWith(open) && trimmed.endsWith(close)) {
      return { mode: "phrase", phrase: trimmed.slice(open.length, -close.length) };
    }
  }
  const tokens = normalizeQuery(trimmed).split(" ").map(trimPunctuation).filter(Boolean);
  if (tokens.length < 2) return { mode: "phrase", phrase: query };
  const words: QueryWord[] = [];
  for (const token of tokens) {
    if (STOPWORDS.has(token) || words.some((w) => w.word === token)) continue;
    words.push({ word: token, stem: stemOf(token) });
  }
  // Only function words ("to be or not to be"): the phrase itself is what is meant.
  if (words.length === 0) return { mode: "phrase", phrase: query };
  return { mode: "words", phrase: query, words };
}

/** The word without one common English inflection, when enough of it is left. */
export function stemOf(word: string): string {
  for (const ending of ENDINGS) {
    if (word.endsWith(ending) && word.length - ending.length >= MIN_STEM) return word.slice(0, -ending.length);
  }
  return word;
}

function trimPunctuation(token: string): string {
  return token.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, "");
}
