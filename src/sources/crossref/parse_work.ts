/**
 * Crossref `/works/{doi}` JSON → {@link CrossrefWork}. Titles and container titles are arrays (the first
 * is the main one); dates are `date-parts`; relations come in `updated-by` (notices about this work) and
 * `update-to` (what a notice updates).
 */
import { ToolError } from "../../core/errors.ts";
import type { CrossrefAuthor, CrossrefUpdate, CrossrefWork } from "./types.ts";
import { crossrefUpdateType, type WorkUpdate } from "../works/updates.ts";

type Json = Record<string, unknown>;

/** Update types that withdraw a work: a RETRACTED verdict, not a correction. */
export const RETRACTION_TYPES = new Set(["retraction", "withdrawal", "removal", "partial_retraction"]);

export function parseCrossrefWork(body: string, url: string): CrossrefWork {
  let parsed: Json;
  try {
    parsed = JSON.parse(body) as Json;
  } catch {
    throw new ToolError("UPSTREAM_ERROR", `Crossref answered ${url} with a body that is not JSON.`, "Retry later.");
  }
  const m = parsed.message as Json | undefined;
  if (parsed["message-type"] !== "work" || !m || typeof m.DOI !== "string") {
    throw new ToolError("UPSTREAM_ERROR", `Crossref answered ${url} without a work record.`, "Retry later.");
  }
  return {
    doi: m.DOI.toLowerCase(),
    title: first(m.title),
    authors: Array.isArray(m.author) ? m.author.map(author) : [],
    containerTitle: first(m["container-title"]),
    shortContainerTitle: first(m["short-container-title"]),
    volume: str(m.volume),
    issue: str(m.issue),
    page: str(m.page),
    issued: dateParts(m.issued) ?? dateParts(m.published) ?? dateParts(m.approved),
    type: str(m.type),
    publisher: str(m.publisher),
    issn: first(m.ISSN),
    url: str(m.URL),
    ...optional({
      subtitle: first(m.subtitle),
      articleNumber: str(m["article-number"]),
      publisherLocation: str(m["publisher-location"]),
      subtype: str(m.subtype),
      editors: Array.isArray(m.editor) && m.editor.length ? m.editor.map(author) : undefined,
      isbn: Array.isArray(m.ISBN) && m.ISBN.length ? m.ISBN.filter((i) => typeof i === "string") : undefined,
      event: event(m.event),
      institution: institution(m.institution),
      degree: first(m.degree),
      edition: str(m["edition-number"]),
      language: str(m.language),
    }),
    updatedBy: updates(m["updated-by"]),
    updateTo: updates(m["update-to"]),
  };
}

/** The retraction notices among a work's `updated-by` relations. */
export function retractionNotices(work: CrossrefWork): CrossrefUpdate[] {
  return work.updatedBy.filter((u) => RETRACTION_TYPES.has(u.type.toLowerCase()));
}

/** Every notice about a work (`updated-by`: corrections, expressions of concern, retractions) as {@link WorkUpdate}s. */
export function workUpdates(work: CrossrefWork): WorkUpdate[] {
  return work.updatedBy.map((u) => {
    const out: WorkUpdate = { type: crossrefUpdateType(u.type), source: "Crossref" };
    if (u.doi) out.id = `doi:${u.doi}`;
    if (u.date) out.date = u.date;
    return out;
  });
}

function author(value: Json): CrossrefAuthor {
  const out: CrossrefAuthor = {};
  if (str(value.family)) out.family = str(value.family);
  if (str(value.given)) out.given = str(value.given);
  if (str(value.name)) out.name = str(value.name);
  return out;
}

function event(value: unknown): CrossrefWork["event"] {
  if (!value || typeof value !== "object") return undefined;
  const e = value as Json;
  const out = optional({ name: first(e.name), location: first(e.location) });
  return Object.keys(out).length ? out : undefined;
}

function institution(value: unknown): CrossrefWork["institution"] {
  const i = (Array.isArray(value) ? value[0] : undefined) as Json | undefined;
  const name = i && first(i.name);
  return name ? { name, ...optional({ place: first(i.place), department: first(i.department) }) } : undefined;
}

/** The fields that have a value (the record stays free of `undefined` keys). */
function optional<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

function updates(value: unknown): CrossrefUpdate[] {
  if (!Array.isArray(value)) return [];
  return value.filter((u): u is Json => !!u && typeof u === "object" && typeof u.type === "string").map((u) => {
    const out: CrossrefUpdate = { type: u.type as string };
    if (str(u.DOI)) out.doi = (u.DOI as string).toLowerCase();
    if (str(u.label)) out.label = str(u.label);
    if (str(u.source)) out.source = str(u.source);
    const date = dateParts(u.updated);
    if (date) out.date = date;
    return out;
  });
}

/** `{"date-parts":[[2008,2,29]]}` → `2008-02-29`; `[[null]]` → undefined. */
export function dateParts(value: unknown): string | undefined {
  const parts = ((value as Json | undefined)?.["date-parts"] as unknown[][] | undefined)?.[0];
  if (!Array.isArray(parts) || typeof parts[0] !== "number") return undefined;
  return parts.filter((p) => typeof p === "number").map((p, i) => String(p).padStart(i === 0 ? 4 : 2, "0"))
    .join("-");
}

function first(value: unknown): string | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  return str(v)?.replace(/\s+/g, " ").trim();
}

function str(value: unknown): string | undefined {
  return typeof value === "string" && value.trim() !== "" ? value : undefined;
}
