/**
 * OpenAlex list bodies (`{meta, results, group_by}`) and entity records (topics, fields, subfields,
 * domains, concepts). A body without `results` (a group_by answer, an HTML error page) is a parse error,
 * never an empty list.
 */
import { UpstreamError } from "../../core/errors.ts";
import { shortId } from "./ids.ts";
import type { OpenAlexEntity, OpenAlexListMeta } from "./types.ts";

type Json = Record<string, unknown>;

export interface OpenAlexList {
  meta: OpenAlexListMeta;
  results: Json[];
}

export function parseList(body: string, url: string): OpenAlexList {
  let json: Json;
  try {
    json = JSON.parse(body) as Json;
  } catch (cause) {
    throw parseError(url, `OpenAlex sent a body that is not JSON (${JSON.stringify(body.slice(0, 80))})`, cause);
  }
  if (!json || !Array.isArray(json.results) || typeof json.meta !== "object" || json.meta === null) {
    throw parseError(url, "OpenAlex sent JSON without a results list");
  }
  const meta = json.meta as Json;
  return {
    meta: {
      count: typeof meta.count === "number" ? meta.count : 0,
      perPage: typeof meta.per_page === "number" ? meta.per_page : undefined,
      nextCursor: typeof meta.next_cursor === "string" && meta.next_cursor ? meta.next_cursor : undefined,
    },
    results: json.results as Json[],
  };
}

const LEVELS: Record<string, OpenAlexEntity["level"]> = {
  T: "topic",
  C: "concept",
  domains: "domain",
  fields: "field",
  subfields: "subfield",
};

/** A topic/field/subfield/domain/concept record; its parent is the next level up. */
export function parseEntity(raw: Json): OpenAlexEntity | undefined {
  const id = shortId(String(raw.id ?? ""));
  const level = LEVELS[id.split("/")[0]] ?? LEVELS[id.charAt(0)];
  const name = typeof raw.display_name === "string" ? raw.display_name.trim() : "";
  if (!level || !name) return undefined;
  const parentNode =
    (level === "topic"
      ? raw.subfield
      : level === "subfield"
      ? raw.field
      : level === "field"
      ? raw.domain
      : undefined) as Json | undefined;
  return {
    id,
    name,
    level,
    parent: parentNode?.id ? shortId(String(parentNode.id)) : undefined,
    parentName: typeof parentNode?.display_name === "string" ? parentNode.display_name : undefined,
    worksCount: typeof raw.works_count === "number" ? raw.works_count : undefined,
    description: typeof raw.description === "string" ? raw.description : undefined,
  };
}

/**
 * OpenAlex error bodies are `{"error": "...", "message": "..."}`; the message can list every valid field,
 * so the body the pipeline keeps (its first 4 KiB) may be cut mid-string: then the fields are read as far
 * as they go.
 */
export function errorMessage(body: string | undefined): string | undefined {
  if (!body) return undefined;
  const fields: string[] = [];
  try {
    const json = JSON.parse(body) as Json;
    for (const key of ["error", "message"]) if (typeof json[key] === "string") fields.push(json[key] as string);
  } catch {
    for (const m of body.matchAll(/"(?:error|message)"\s*:\s*"((?:[^"\\]|\\.)*)/g)) fields.push(unescape(m[1]));
  }
  const message = fields.join(": ");
  if (!message) return undefined;
  return message.length > 300 ? message.slice(0, 300) + "…" : message;
}

function unescape(s: string): string {
  try {
    return JSON.parse(`"${s.replace(/\\$/, "")}"`);
  } catch {
    return s;
  }
}

function parseError(url: string, message: string, cause?: unknown): UpstreamError {
  return new UpstreamError({ kind: "parse", upstream: "openalex", url, message: `${message} for ${url}`, cause });
}
