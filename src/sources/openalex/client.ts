/**
 * OpenAlex client (`openalex` upstream; the pipeline adds `api_key`/`mailto` from the config). One
 * instance per tool call: it counts requests and keeps the last cost/budget headers so the tool can
 * report them. Failures become specific ToolErrors — a missing OPENALEX_API_KEY is named, never turned
 * into an empty list.
 */
import { ToolError, UpstreamError } from "../../core/errors.ts";
import type { SourceContext } from "../../context.ts";
import type { UpstreamResponse } from "../../upstream/types.ts";
import type { ServiceRequest } from "../../upstreams/mod.ts";
import { describeBudget, type OpenAlexBudget, readBudget } from "./budget.ts";
import { errorMessage, parseEntity, parseList } from "./parse_list.ts";
import { type OpenAlexGroup, parseGroupBy } from "./parse_group_by.ts";
import { parseBody } from "../parse_off_thread.ts";
import { workJob, worksListJob } from "./parse_work.ts";
import type { OpenAlexEntity, OpenAlexWork } from "./types.ts";
import { type OpenAlexAuthor, parseAuthors } from "./parse_author.ts";

export type OpenAlexCtx = Pick<SourceContext, "upstream" | "signal" | "config">;

export interface Notice {
  code: string;
  message: string;
}

/** Largest page OpenAlex serves. */
export const OPENALEX_PAGE_SIZE = 100;
const KEY_HINT = "Set OPENALEX_API_KEY (free at https://openalex.org/settings/api; required by OpenAlex since " +
  "February 2026) and restart the server.";
/** Fields a paper list needs: smaller pages, same cost. */
export const LIST_SELECT = "id,doi,display_name,publication_date,authorships,best_oa_location,primary_location," +
  "open_access,cited_by_count,type,ids,is_retracted,abstract_inverted_index";

export interface WorksQuery {
  filter: string;
  sort: string;
  count: number;
}

export class OpenAlexClient {
  #requests = 0;
  #budget?: OpenAlexBudget;
  constructor(private readonly ctx: OpenAlexCtx) {}

  get keyMissing(): boolean {
    return !this.ctx.config.openalex.apiKey;
  }

  /**
   * Works matching a filter, in `sort` order, cursor-paged 100 at a time until `count`. When the cursor
   * runs out (or a page comes back empty) before `count` and before the total OpenAlex reported,
   * `shortfall` says so; an empty last page never lowers the total the earlier pages gave.
   */
  async works(
    q: WorksQuery,
    onPage?: (got: number, wanted: number) => Promise<void>,
  ): Promise<{ works: OpenAlexWork[]; total: number; shortfall?: string }> {
    const works: OpenAlexWork[] = [];
    const perPage = Math.min(OPENALEX_PAGE_SIZE, q.count);
    let total = 0;
    let first = true;
    for (let cursor: string | undefined = "*"; cursor && works.length < q.count; first = false) {
      const query = { filter: q.filter, sort: q.sort, per_page: perPage, cursor, select: LIST_SELECT };
      const response = await this.#get("/works", query);
      const list = await parseBody(worksListJob, response, [], this.ctx.signal);
      if (first || list.works.length > 0) total = Math.max(total, list.meta.count);
      works.push(...list.works.slice(0, q.count - works.length));
      await onPage?.(works.length, Math.min(q.count, total));
      cursor = list.works.length > 0 ? list.meta.nextCursor : undefined;
    }
    const expected = Math.min(q.count, total);
    if (works.length >= expected) return { works, total };
    return {
      works,
      total,
      shortfall: `partial result: ${works.length} of ${expected} works; OpenAlex ended the listing early`,
    };
  }

  /**
   * One page of a works search (basic paging: `page` × `per_page` reaches at most the first 10,000).
   * @example await client.worksPage({ search: "malaria", sort: "relevance_score:desc" }, 20, 1)
   */
  async worksPage(
    q: { search?: string; filter?: string; sort?: string },
    perPage: number,
    page: number,
  ): Promise<{ works: OpenAlexWork[]; total: number }> {
    const response = await this.#get("/works", { ...q, per_page: perPage, page, select: LIST_SELECT });
    const list = await parseBody(worksListJob, response, [], this.ctx.signal);
    return { works: list.works, total: list.meta.count };
  }

  /**
   * Works counted by a field in one request (`group_by`), e.g. per publication year.
   * @example await client.groupWorks({ search: "malaria", filter: "publication_year:2000-2024" }, "publication_year")
   */
  async groupWorks(q: { search?: string; filter?: string }, groupBy: string): Promise<OpenAlexGroup[]> {
    const response = await this.#get("/works", { ...q, group_by: groupBy });
    return parseGroupBy(response.text(), response.url).groups;
  }

  /**
   * One cursor page of works (`cursor` "*" for the first), with the fields a citation list needs: ids
   * that chain into other tools, the venue, retraction flag. `nextCursor` is absent on the last page;
   * `unreadable` counts the page's results that were not work records (absent when there were none).
   */
  async worksCursorPage(
    q: { filter?: string; search?: string; sort?: string },
    perPage: number,
    cursor: string,
  ): Promise<{ works: OpenAlexWork[]; total: number; nextCursor?: string; unreadable?: number }> {
    const select = `${LIST_SELECT},ids,is_retracted,biblio,publication_year`;
    const response = await this.#get("/works", { ...q, per_page: perPage, cursor, select });
    const { meta, works, unreadable } = await parseBody(worksListJob, response, [], this.ctx.signal);
    return {
      works,
      total: meta.count,
      nextCursor: works.length ? meta.nextCursor : undefined,
      ...(unreadable ? { unreadable } : {}),
    };
  }

  /** One work with all its locations; ENTITY_NOT_FOUND when OpenAlex has none. */
  async work(id: string): Promise<OpenAlexWork> {
    const response = await this.#get(`/works/${id}`, {}, `work ${id}`);
    return await parseBody(workJob, response, [], this.ctx.signal);
  }

  /**
   * One page of authors (`search` by name, `filter` e.g. `orcid:…` or `affiliations.institution.id:I1|I2`), in
   * OpenAlex's relevance order (works count when nothing is searched).
   */
  async authorsPage(
    q: { search?: string; filter?: string },
    perPage: number,
    page: number,
  ): Promise<{ authors: OpenAlexAuthor[]; total: number; unreadable: number }> {
    const response = await this.#get("/authors", { ...q, per_page: perPage, page });
    const list = parseList(response.text(), response.url);
    return { ...parseAuthors(list.results), total: list.meta.count };
  }

  /** Institution ids for a name (the best `limit` matches), to narrow authors by affiliation. */
  async institutionIds(name: string, limit = 5): Promise<{ id: string; name: string }[]> {
    const response = await this.#get("/institutions", { search: name, per_page: limit });
    return parseList(response.text(), response.url).results.flatMap((r) => {
      const id = String(r.id ?? "").replace(/^https?:\/\/openalex\.org\//, "");
      return /^I\d+$/.test(id) && typeof r.display_name === "string" ? [{ id, name: r.display_name }] : [];
    });
  }

  /** Topics ranked by OpenAlex's relevance for a plain-language name. */
  async searchTopics(name: string, limit = 5): Promise<OpenAlexEntity[]> {
    const response = await this.#get("/topics", { search: name, per_page: limit });
    return entities(parseList(response.text(), response.url).results);
  }

  /** Every entity of a small level (`/domains`, `/fields`, `/subfields`), all pages. */
  async allEntities(path: "/domains" | "/fields" | "/subfields"): Promise<OpenAlexEntity[]> {
    const out: OpenAlexEntity[] = [];
    for (let cursor: string | undefined = "*"; cursor;) {
      const response = await this.#get(path, { per_page: OPENALEX_PAGE_SIZE, cursor });
      const list = parseList(response.text(), response.url);
      out.push(...entities(list.results));
      cursor = list.results.length > 0 ? list.meta.nextCursor : undefined;
    }
    return out;
  }

  /** What the caller should know: a missing key, the cost/budget headers of the last response. */
  notices(): Notice[] {
    const out: Notice[] = [];
    if (this.keyMissing && this.#requests > 0) {
      out.push({
        code: "OpenAlexKeyMissing",
        message: "OPENALEX_API_KEY is not set: OpenAlex serves keyless callers only a tiny daily budget. " + KEY_HINT,
      });
    }
    if (this.#budget) out.push({ code: "OpenAlexBudget", message: describeBudget(this.#budget, this.#requests) });
    return out;
  }

  async #get(path: string, query: ServiceRequest["query"], what?: string): Promise<UpstreamResponse> {
    const request: ServiceRequest = { upstream: "openalex", path, query, accept: "application/json" };
    try {
      const response = await this.ctx.upstream.request({ ...request, signal: this.ctx.signal });
      this.#requests++;
      this.#budget = readBudget(response.headers) ?? this.#budget;
      return response;
    } catch (error) {
      throw this.#mapError(error, what ?? this.ctx.upstream.describe(request));
    }
  }

  #mapError(error: unknown, what: string): unknown {
    if (!(error instanceof UpstreamError) || error.kind !== "http") return error;
    const detail = errorMessage(error.body);
    switch (error.status) {
      case 400:
        return new ToolError(
          "INVALID_INPUT",
          `OpenAlex rejected the query: ${detail ?? "HTTP 400"}`,
          "Check the category/concept id (list_categories source=openalex shows valid ids) and dates (YYYY-MM-DD).",
          { cause: error },
        );
      case 404:
        return new ToolError("ENTITY_NOT_FOUND", `OpenAlex has no ${what}.`, "Check the id (e.g. W2741809807).", {
          cause: error,
        });
      case 401:
      case 403:
        return this.keyMissing
          ? new ToolError(
            "NOT_AVAILABLE",
            `OpenAlex refused the request (HTTP ${error.status}) and OPENALEX_API_KEY is not set.`,
            KEY_HINT,
            { cause: error },
          )
          : new ToolError(
            "UPSTREAM_ERROR",
            `OpenAlex refused the request (HTTP ${error.status}): the API key was not accepted or today's ` +
              `budget is spent${detail ? ` (${detail})` : ""}.`,
            "Check OPENALEX_API_KEY at https://openalex.org/settings/api; budgets reset at midnight UTC.",
            { cause: error },
          );
      case 429:
        if (!this.keyMissing) return error;
        return new ToolError(
          "RATE_LIMITED",
          "OpenAlex answered 429: the keyless daily budget is spent.",
          KEY_HINT,
          { cause: error },
        );
      default:
        return error;
    }
  }
}

function entities(results: Record<string, unknown>[]): OpenAlexEntity[] {
  return results.map(parseEntity).filter((e): e is OpenAlexEntity => e !== undefined);
}
