/**
 * Parses an arXiv API Atom feed (both the 2016 serialization with per-element xmlns and the current one).
 * Two traps are handled here rather than downstream: an error is an ordinary feed whose single entry is
 * titled "Error" (raised as {@link ArxivQueryError}, never returned as a paper), and a throttled API can
 * answer HTTP 200 with the plain-text body `Rate exceeded.` (raised as a 429, never read as an empty feed).
 */
import { XMLParser } from "npm:fast-xml-parser@5.12.1";
import { parseJob } from "../parse_job.ts";
import { xmlProblem } from "../xml_check.ts";
import { UpstreamError } from "../../core/errors.ts";
import { idFromAbsUrl } from "./ids.ts";
import type { ArxivEntry, ArxivFeed } from "./types.ts";

/** The API understood the request and refused it (bad id, bad query): the message is arXiv's own. */
export class ArxivQueryError extends Error {
  override name = "ArxivQueryError";
}

type Node = Record<string, unknown>;

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@_",
  removeNSPrefix: true,
  parseTagValue: false,
  parseAttributeValue: false,
  processEntities: true,
  htmlEntities: true,
  ignoreDeclaration: true,
  isArray: (name) => ["entry", "author", "link", "category"].includes(name),
});

/** {@link parseArxivFeed} as a parse job (see parse_off_thread.ts). */
export const arxivFeedJob = parseJob(
  "arxiv-feed",
  "arxiv-api",
  (body: string, url: string) => parseArxivFeed(body, url),
  [ArxivQueryError],
);

/** @param url the (redacted) request URL, for error messages. */
export function parseArxivFeed(body: string, url: string): ArxivFeed {
  const trimmed = body.replace(/^\uFEFF/, "").trimStart();
  if (/^rate exceeded/i.test(trimmed)) {
    throw new UpstreamError({
      kind: "http",
      upstream: "arxiv-api",
      url,
      status: 429,
      message: `arXiv throttled the request (it answered "Rate exceeded." with HTTP 200) for ${url}`,
    });
  }
  const problem = trimmed.startsWith("<") ? xmlProblem(trimmed) : undefined;
  if (problem) {
    throw new UpstreamError({
      kind: "parse",
      upstream: "arxiv-api",
      url,
      message: `arXiv sent malformed or truncated XML (${problem}) for ${url}`,
    });
  }
  const feed = trimmed.startsWith("<") ? parseOrUndefined(trimmed)?.feed as Node | undefined : undefined;
  if (!feed || typeof feed !== "object") {
    throw new UpstreamError({
      kind: "parse",
      upstream: "arxiv-api",
      url,
      message: `arXiv sent a body that is not an Atom feed (${JSON.stringify(trimmed.slice(0, 80))}) for ${url}`,
    });
  }
  const rawEntries = (feed.entry as Node[] | undefined) ?? [];
  const error = rawEntries.find(isErrorEntry);
  if (error) throw new ArxivQueryError(clean(text(error.summary)) || "arXiv reported an unspecified error");
  return {
    totalResults: toInt(feed.totalResults),
    startIndex: toInt(feed.startIndex),
    itemsPerPage: toInt(feed.itemsPerPage),
    entries: rawEntries.map(toEntry).filter((e): e is ArxivEntry => e !== undefined),
  };
}

function parseOrUndefined(xml: string): Node | undefined {
  try {
    return parser.parse(xml) as Node;
  } catch {
    return undefined;
  }
}

function isErrorEntry(entry: Node): boolean {
  return text(entry.id).includes("/api/errors") || (clean(text(entry.title)) === "Error" && !entry.published);
}

function toEntry(entry: Node): ArxivEntry | undefined {
  const id = idFromAbsUrl(text(entry.id));
  if (!id) return undefined;
  const links = (entry.link as Node[] | undefined) ?? [];
  const pdf = links.find((l) => l["@_title"] === "pdf" || l["@_type"] === "application/pdf");
  const abs = links.find((l) => l["@_rel"] === "alternate");
  const categories = ((entry.category as Node[] | undefined) ?? []).map((c) => String(c["@_term"] ?? ""))
    .filter(Boolean);
  const primary = entry.primary_category as Node | undefined;
  return {
    id,
    title: clean(text(entry.title)),
    authors: ((entry.author as Node[] | undefined) ?? []).map((a) => clean(text(a.name))).filter(Boolean),
    summary: clean(text(entry.summary)),
    published: clean(text(entry.published)),
    updated: clean(text(entry.updated)),
    primaryCategory: primary?.["@_term"] ? String(primary["@_term"]) : categories[0],
    categories,
    absUrl: https(abs?.["@_href"] ? String(abs["@_href"]) : `https://arxiv.org/abs/${id}`),
    pdfUrl: pdf?.["@_href"] ? https(String(pdf["@_href"])) : undefined,
    doi: optional(entry.doi),
    journalRef: optional(entry.journal_ref),
    comment: optional(entry.comment),
  };
}

/** Text of an element that may carry attributes (`<title type="html">`). */
function text(node: unknown): string {
  if (node === undefined || node === null) return "";
  if (typeof node === "string" || typeof node === "number") return String(node);
  if (typeof node === "object" && "#text" in (node as Node)) return String((node as Node)["#text"]);
  return "";
}

/** The 2016 feeds wrap titles and summaries with hard line breaks and leading spaces. */
function clean(value: string): string {
  return value.replace(/\s+/g, " ").trim();
}

function optional(node: unknown): string | undefined {
  return clean(text(node)) || undefined;
}

function toInt(node: unknown): number {
  const n = Number.parseInt(text(node), 10);
  return Number.isFinite(n) ? n : 0;
}

function https(url: string): string {
  return url.replace(/^http:\/\/arxiv\.org\//, "https://arxiv.org/");
}
