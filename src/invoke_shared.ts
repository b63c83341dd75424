/**
 * The call path behind src/runtime.ts's invokeShared: invokeTool (validation, the handler, the output check,
 * the budget, the text) behind the result memo. Imported on a server's first tool call, not at its start.
 */
import type { ToolContext } from "./context.ts";
import { invokeTool, type ToolResult } from "./core/invoke.ts";
import { ResultMemo, stableJson } from "./core/result_memo.ts";
import { sharedKey } from "./core/shared_key.ts";
import type { Clock } from "./core/clock.ts";
import type { SharedStore } from "./core/shared_key.ts";
import type { AnyToolDef } from "./tools/tool_def.ts";
import type { ServiceUpstream } from "./upstreams/mod.ts";

const RESULTS = sharedKey<ResultMemo<ToolResult>>("runtime:results");

/** What of a runtime the memo needs (a Runtime is one): its singletons and its clock. */
export interface MemoHost extends SharedStore {
  readonly deps: { readonly clock: Clock };
}

/** invokeShared of src/runtime.ts, which imports this module on the first call. */
export async function invokeOnce(
  runtime: MemoHost,
  def: AnyToolDef,
  args: unknown,
  ctx: ToolContext,
): Promise<ToolResult> {
  const { readOnlyHint, idempotentHint, openWorldHint } = def.annotations;
  if (!readOnlyHint || !idempotentHint || !openWorldHint) return await invokeTool(def, args, ctx);
  const memo = runtime.shared(RESULTS, () => new ResultMemo<ToolResult>({ clock: runtime.deps.clock }));
  // A success made while a source failed (a fallback, a partial answer) is not kept: the next call asks again.
  let degraded = false;
  const upstream: ServiceUpstream = {
    ...ctx.upstream,
    request: (request) =>
      ctx.upstream.request(request).catch((error) => {
        degraded = true;
        throw error;
      }),
  };
  const run = () => invokeTool(def, args, { ...ctx, upstream });
  const key = `${def.name}\n${ctx.outputBudget}\n${stableJson(args)}`;
  return await memo.run(key, run, ctx.signal, () => !degraded);
}
