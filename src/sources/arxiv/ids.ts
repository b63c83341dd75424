/**
 * arXiv identifiers: new style `YYMM.NNNNN` (4 digits after the dot before 2015) and old style
 * `archive[.SC]/YYMMNNN`, each with an optional `vN`. Callers paste them in many dresses
 * (`arXiv:2104.12255`, `https://arxiv.org/abs/2104.12255v1`, `.../pdf/2104.12255v1.pdf`); we accept those.
 */

const NEW_STYLE = /^\d{4}\.\d{4,5}(v\d+)?$/;
const OLD_STYLE = /^[a-z][a-z-]*(\.[A-Z]{2})?\/\d{7}(v\d+)?$/;
const URL_FORM = /^https?:\/\/(?:export\.|www\.)?arxiv\.org\/(?:abs|pdf|html)\/(.+?)(?:\.pdf)?\/?$/i;

/**
 * Returns the bare arXiv id (version kept when given) or undefined when `raw` is not one.
 * @example normalizeArxivId("arXiv:2104.12255v1") // "2104.12255v1"
 */
export function normalizeArxivId(raw: string): string | undefined {
  let id = raw.trim();
  const url = URL_FORM.exec(id);
  if (url) id = url[1];
  id = id.replace(/^arxiv:/i, "");
  return NEW_STYLE.test(id) || OLD_STYLE.test(id) ? id : undefined;
}

/** The id without its version suffix. */
export function stripVersion(id: string): string {
  return id.replace(/v\d+$/, "");
}

export function hasVersion(id: string): boolean {
  return /v\d+$/.test(id);
}

/** `http://arxiv.org/abs/1111.2011v2` → `1111.2011v2` (the Atom `<id>` of an entry). */
export function idFromAbsUrl(url: string): string | undefined {
  const match = /\/abs\/(.+)$/.exec(url.trim());
  return match ? normalizeArxivId(match[1]) : undefined;
}

/**
 * Whether `returned` (as arXiv reports it, always versioned) is the paper `requested` names: the same id,
 * and the same version when `requested` carries one. Case-insensitive (`math.ag/…` = `math.AG/…`).
 * @example sameArxivPaper("2104.12255", "2104.12255v3") // true
 */
export function sameArxivPaper(requested: string, returned: string): boolean {
  const want = requested.toLowerCase();
  const got = returned.toLowerCase();
  return hasVersion(want) ? want === got : want === stripVersion(got);
}
