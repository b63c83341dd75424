/**
 * Turns what a caller wrote for an OpenAlex category (topic `T…`, `subfields/N`, `fields/N`,
 * `domains/N`, deprecated concept `C…`, or a plain name) into a works filter. Names go through
 * OpenAlex's topic search; the chosen topic and the runners-up are reported, never silently picked.
 */
import { invalidInput, ToolError } from "../../core/errors.ts";
import type { OpenAlexClient } from "../../sources/openalex/client.ts";
import { parseCategoryRef, worksFilterFor } from "../../sources/openalex/ids.ts";
import { findArxivCategory } from "../../sources/arxiv/taxonomy.ts";
import type { Warning } from "./schemas.ts";
import { z } from "../../core/zod.ts";

export const categoryUsedSchema = z.object({
  id: z.string().describe("Topic/field/subfield/domain/concept id the filter used"),
  level: z.string(),
  name: z.string().optional(),
  resolved_from: z.string().optional().describe("The plain name that was resolved through topic search"),
});
export type CategoryUsed = z.infer<typeof categoryUsedSchema>;

export interface ResolvedCategory {
  filter: string;
  used: CategoryUsed;
  warnings: Warning[];
}

export async function resolveOpenAlexCategory(
  client: OpenAlexClient,
  raw: string,
  field: string,
): Promise<ResolvedCategory> {
  const ref = parseCategoryRef(raw);
  if (ref) {
    const warnings: Warning[] = ref.kind !== "concept" ? [] : [{
      code: "DeprecatedConcept",
      message: `${ref.id} is an OpenAlex concept; OpenAlex deprecated concepts in favour of topics and no ` +
        "longer updates them. Prefer a topic id (list_categories source=openalex query=<name>).",
    }];
    return { filter: worksFilterFor(ref), used: { id: ref.id, level: ref.kind }, warnings };
  }
  const arxiv = findArxivCategory(raw);
  if (arxiv) {
    // OpenAlex's topic search would resolve the code to some unrelated topic and list the wrong papers.
    throw invalidInput(
      field,
      `${arxiv.code} is an arXiv category (${arxiv.name}), not an OpenAlex topic`,
      raw,
      `Use source=arxiv with ${field}=${arxiv.code}, or an OpenAlex topic id or name (list_categories source=openalex).`,
    );
  }
  if (/^[a-z]?\d+$/i.test(raw.trim()) || /openalex\.org\//i.test(raw)) {
    throw invalidInput(
      field,
      "not an OpenAlex topic (T…), concept (C…), subfields/N, fields/N or domains/N id",
      raw,
      "Use an id such as T11636, fields/27 or subfields/2718 (list_categories source=openalex), or a plain topic name.",
    );
  }
  const topics = await client.searchTopics(raw.trim(), 5);
  const [chosen, ...others] = topics;
  if (!chosen) {
    throw new ToolError(
      "UNRESOLVED_ENTITY",
      `No OpenAlex topic matches "${raw.trim()}".`,
      "Try a broader or differently worded name, or browse ids with list_categories source=openalex.",
      { invalidInput: { field, value: raw } },
    );
  }
  const alternatives = others.map((t) => `${t.id} (${t.name})`).join(", ");
  return {
    filter: `topics.id:${chosen.id}`,
    used: { id: chosen.id, level: "topic", name: chosen.name, resolved_from: raw.trim() },
    warnings: [{
      code: "TopicResolved",
      message: `"${raw.trim()}" was resolved to topic ${chosen.id} (${chosen.name}` +
        `${chosen.parentName ? `, in ${chosen.parentName}` : ""}).` +
        (alternatives ? ` Other matches: ${alternatives}; pass one of those ids to use it instead.` : ""),
    }],
  };
}
