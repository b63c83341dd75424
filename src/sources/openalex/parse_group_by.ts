/**
 * OpenAlex `group_by` answers: `{meta: {count, groups_count, …}, group_by: [{key, key_display_name, count}]}`,
 * with no `results` list. A body without the `group_by` list is a parse error, never zero groups.
 */
import { UpstreamError } from "../../core/errors.ts";

export interface OpenAlexGroup {
  key: string;
  displayName: string;
  count: number;
}

export function parseGroupBy(body: string, url: string): { total: number; groups: OpenAlexGroup[] } {
  let json: Record<string, unknown>;
  try {
    json = JSON.parse(body);
  } catch (cause) {
    throw parseError(url, `OpenAlex sent a body that is not JSON (${JSON.stringify(body.slice(0, 80))})`, cause);
  }
  if (!json || !Array.isArray(json.group_by)) throw parseError(url, "OpenAlex sent JSON without a group_by list");
  const groups = (json.group_by as Record<string, unknown>[]).map((g) => {
    if (typeof g?.count !== "number" || (typeof g.key !== "string" && typeof g.key !== "number")) {
      throw parseError(url, `OpenAlex sent a group without key or count (${JSON.stringify(g).slice(0, 80)})`);
    }
    const key = String(g.key);
    return { key, displayName: typeof g.key_display_name === "string" ? g.key_display_name : key, count: g.count };
  });
  const meta = json.meta as { count?: unknown } | undefined;
  return { total: typeof meta?.count === "number" ? meta.count : groups.reduce((a, g) => a + g.count, 0), groups };
}

function parseError(url: string, message: string, cause?: unknown): UpstreamError {
  return new UpstreamError({ kind: "parse", upstream: "openalex", url, message: `${message} for ${url}`, cause });
}
