/**
 * OpenAlex's domains, fields and subfields (4 + 26 + ~254 entries, five list requests) fetched once per
 * server and kept for a day: they change a few times a year. Calls arriving while it loads share the fetch.
 */
import { sharedKey } from "../../core/shared_key.ts";
import type { ToolContext } from "../tool_def.ts";
import { OpenAlexClient } from "../../sources/openalex/client.ts";
import { logOperatorNotices } from "./operator_notices.ts";
import type { OpenAlexEntity } from "../../sources/openalex/types.ts";

export const HIERARCHY_TTL_MS = 24 * 3600_000;

interface Entry {
  fetchedAt: number;
  value: Promise<OpenAlexEntity[]>;
}

const HIERARCHY = sharedKey<{ entry?: Entry }>("papers:openalex-hierarchy");

export async function openalexHierarchy(ctx: ToolContext): Promise<OpenAlexEntity[]> {
  const slot = ctx.shared(HIERARCHY, () => ({}));
  const now = ctx.clock.now();
  if (slot.entry && now - slot.entry.fetchedAt <= HIERARCHY_TTL_MS) {
    return await slot.entry.value;
  }
  const entry: Entry = { fetchedAt: now, value: load(ctx) };
  slot.entry = entry;
  // A failed fetch is not kept: the next call tries again.
  entry.value.catch(() => slot.entry === entry && (slot.entry = undefined));
  return await entry.value;
}

async function load(ctx: ToolContext): Promise<OpenAlexEntity[]> {
  const client = new OpenAlexClient(ctx);
  const entities: OpenAlexEntity[] = [];
  for (const path of ["/domains", "/fields", "/subfields"] as const) entities.push(...await client.allEntities(path));
  logOperatorNotices(ctx, client);
  return entities;
}
