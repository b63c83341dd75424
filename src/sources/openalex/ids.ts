/**
 * OpenAlex identifiers as callers write them: short (`W2741809807`, `T11636`, `C71924100`,
 * `fields/27`) or as URLs (`https://openalex.org/T11636`, `https://openalex.org/fields/27`).
 */

export type CategoryRef =
  | { kind: "topic" | "concept"; id: string }
  | { kind: "subfield" | "field" | "domain"; id: string; number: string };

const OPENALEX_URL = /^https?:\/\/(?:api\.)?openalex\.org\//i;

/** Strips the openalex.org prefix: `https://openalex.org/W123` → `W123`. */
export function shortId(raw: string): string {
  return raw.trim().replace(OPENALEX_URL, "");
}

/** `W2741809807` (any case, URL form accepted) or undefined. */
export function normalizeWorkId(raw: string): string | undefined {
  const id = shortId(raw);
  return /^w\d+$/i.test(id) ? id.toUpperCase() : undefined;
}

/**
 * A topic, concept, subfield, field or domain id, or undefined when `raw` is none of them.
 * @example parseCategoryRef("https://openalex.org/subfields/2718")
 *   // { kind: "subfield", id: "subfields/2718", number: "2718" }
 */
export function parseCategoryRef(raw: string): CategoryRef | undefined {
  const id = shortId(raw);
  const entity = /^(t|c)(\d+)$/i.exec(id);
  if (entity) {
    return {
      kind: entity[1].toLowerCase() === "t" ? "topic" : "concept",
      id: `${entity[1].toUpperCase()}${entity[2]}`,
    };
  }
  const level = /^(subfield|field|domain)s\/(\d+)$/i.exec(id);
  if (level) {
    const kind = level[1].toLowerCase() as "subfield" | "field" | "domain";
    return { kind, id: `${kind}s/${level[2]}`, number: level[2] };
  }
  return undefined;
}

/**
 * The works filter for a category: `topics.*` (any of a work's topics, like arXiv's `cat:` which also
 * matches cross-lists) or `concepts.id` for the deprecated concepts.
 */
export function worksFilterFor(ref: CategoryRef): string {
  switch (ref.kind) {
    case "topic":
      return `topics.id:${ref.id}`;
    case "concept":
      return `concepts.id:${ref.id}`;
    default:
      return `topics.${ref.kind}.id:${ref.number}`;
  }
}
