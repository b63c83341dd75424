/**
 * OpenAlex notices meant for the operator (a missing OPENALEX_API_KEY, the cost budget left) go to the log,
 * once per runtime and code, not into each answer: a model cannot set a key or restart the server (#21).
 */
import { sharedKey } from "../../core/shared_key.ts";
import type { OpenAlexClient } from "../../sources/openalex/client.ts";
import type { ToolContext } from "../tool_def.ts";

const LOGGED = sharedKey<Set<string>>("papers:openalex-notices-logged");

/** Logs the client's notices whose code this runtime has not logged yet. */
export function logOperatorNotices(ctx: Pick<ToolContext, "log" | "shared">, client: OpenAlexClient): void {
  const logged = ctx.shared(LOGGED, () => new Set<string>());
  for (const notice of client.notices()) {
    if (logged.has(notice.code)) continue;
    logged.add(notice.code);
    ctx.log.warn(`OpenAlex ${notice.code}: ${notice.message}`, { code: notice.code });
  }
}
