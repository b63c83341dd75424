/**
 * Runs one tool call from untrusted arguments to an MCP CallToolResult. MCP and the CLI both call this,
 * so validation, output checks, size limits and error envelopes are identical on every path.
 */
import { closestArgument, coerceNumericStrings, wrongArticleIdHint } from "./argument_hints.ts";
import { clipValue } from "./clip.ts";
import { DEFAULT_OUTPUT_MAX_CHARS, fitToBudget } from "./output_budget.ts";
import { z } from "./zod.ts";
import { DeadlineError, type ErrorEnvelope, toErrorEnvelope, ToolError } from "./errors.ts";
import { type AnyToolDef, type CallDeadline, extraContent, type InvokeContext, type ToolDefFor } from "./tool_def.ts";
import { fenceBlocks, finishFenced } from "../render/untrusted.ts";
import { errorResult, type ToolResult } from "./tool_result.ts";

export { errorResult, errorText, type ToolResult } from "./tool_result.ts";

/** Results larger than this are refused: clients cut tool output far below it anyway (F-4). */
/** The largest structuredContent (plus attachments) a result may carry, in bytes. */
export const MAX_RESULT_BYTES = 8 * 1024 * 1024;

/**
 * Runs one call of `def` from untrusted arguments: strict validation, the handler under the call's
 * deadline, the output checked against its schema, the text rendered; any failure becomes the envelope.
 */
export async function invokeTool<C extends InvokeContext>(
  def: ToolDefFor<C>,
  rawArgs: unknown,
  ctx: C,
): Promise<ToolResult> {
  const started = ctx.clock.now();
  const deadline = startDeadline(ctx);
  try {
    const args = parseArguments(def, rawArgs);
    const raw = await deadline.race(def.run(args, deadline.ctx));
    // Without zod's compiled fast path: building it (a `new Function` per object schema, on each tool's first
    // call) cost generate_publication_trend's first check 1.8 ms against 0.2 ms, and it saves 4–8 µs per later
    // check, so it would pay back after a few hundred calls of one tool (#36).
    const checked = def.output.safeParse(raw, { jitless: true });
    if (!checked.success) {
      ctx.log.error("tool output does not match its outputSchema", {
        tool: def.name,
        issues: checked.error.issues.slice(0, 5),
      });
      throw new Error(`output of ${def.name} does not match its schema`);
    }
    // A cursor that continues inside an item the budget split: the page starts where that item was cut.
    const result = def.paging?.resume ? def.paging.resume(checked.data, args) : checked.data;
    const budget = ctx.outputBudget ?? DEFAULT_OUTPUT_MAX_CHARS;
    const rest = def.rest;
    // Retrieved text is fenced once here for every tool, inside the budget (src/render/untrusted.ts).
    const render = (r: typeof result) => fenceBlocks(def.render(r));
    const fitted = fitToBudget(result, render, budget, rest && ((cut) => rest(cut, args)), {
      args,
      names: Object.keys(def.input.shape),
      paging: def.paging,
    });
    if (fitted.cut) {
      ctx.log.info("tool result cut to the output budget", { tool: def.name, budget, cut: fitted.cut.path });
    }
    const structuredContent = fitted.structured;
    const extra = extraContent(raw);
    const size = JSON.stringify(structuredContent).length + extra.reduce((n, block) => n + block.data.length, 0);
    if (size > MAX_RESULT_BYTES) {
      throw new ToolError(
        "PAYLOAD_TOO_LARGE",
        `The result of ${def.name} is ${(size / 1e6).toFixed(1)} MB, over the 8 MB limit.`,
        "Ask for less: fewer ids, a smaller count or max_chars, or a lighter detail level.",
      );
    }
    ctx.log.info("tool call succeeded", { tool: def.name, ms: ctx.clock.now() - started });
    return { content: [{ type: "text", text: finishFenced(fitted.text) }, ...extra], structuredContent };
  } catch (error) {
    const envelope = deadline.expired
      ? deadlineEnvelope(def.name, deadline.expired)
      : toErrorEnvelope(error, (name, situation) => ctx.upstream?.recoveryHint?.(name, situation));
    const fields = { tool: def.name, code: envelope.code, ms: ctx.clock.now() - started };
    if (envelope.code === "INTERNAL") ctx.log.error("tool call failed", { ...fields, error: describe(error) });
    else ctx.log.info("tool call failed", { ...fields, message: envelope.message });
    return errorResult(envelope);
  } finally {
    deadline.stop();
  }
}

interface RunningDeadline<C> {
  /** The handler's context: its signal also aborts when the deadline passes. */
  ctx: C;
  /** Settles with `work`, or rejects with a DeadlineError when the deadline passes first. */
  race<T>(work: Promise<T>): Promise<T>;
  /** Set once the deadline has passed. */
  readonly expired?: DeadlineError;
  stop(): void;
}

/**
 * One deadline for the whole call, on the injected clock: every wait the handler makes through
 * `ctx.signal` (permits, back-offs, cool-downs, fetches) ends with it, and the call answers at the
 * deadline even when a handler ignores its signal.
 */
function startDeadline<C extends InvokeContext>(ctx: C): RunningDeadline<C> {
  if (!ctx.deadline) return { ctx, race: (work) => work, stop() {} };
  const { ms, setting }: CallDeadline = ctx.deadline;
  const controller = new AbortController();
  const stopTimer = new AbortController();
  const signal = ctx.signal ? AbortSignal.any([ctx.signal, controller.signal]) : controller.signal;
  const state: RunningDeadline<C> & { expired?: DeadlineError } = {
    ctx: { ...ctx, signal },
    race: (work) => {
      work.catch(() => {/* settled after the deadline: nobody is waiting for it */});
      return Promise.race([work, timeout]);
    },
    stop: () => stopTimer.abort(),
  };
  const timeout = ctx.clock.sleep(ms, stopTimer.signal).then(
    () => {
      const reason = new DeadlineError(ms, setting);
      state.expired = reason;
      controller.abort(reason);
      throw reason;
    },
    () => new Promise<never>(() => {/* stopped: the call finished first */}),
  );
  timeout.catch(() => {});
  return state;
}

/** The call ran out of time: which budget, and how to change it. */
function deadlineEnvelope(tool: string, deadline: DeadlineError): ErrorEnvelope {
  return {
    code: "UPSTREAM_ERROR",
    message: `${tool} did not finish within its ${Math.ceil(deadline.ms / 1000)} s deadline.` +
      (deadline.detail ? ` ${deadline.detail}` : ""),
    recovery_hint: `Retry later or ask for less; the operator can raise ${deadline.setting} (now ${deadline.ms} ms).`,
  };
}

/**
 * Strict parse: unknown keys are rejected too, so a misspelt argument is reported (with the closest real
 * name), not ignored. Numeric strings are taken where the schema wants a number (`"2244"` for a CID).
 */
export function parseArguments(def: AnyToolDef, rawArgs: unknown): Record<string, unknown> {
  const args = coerceNumericStrings(def, rawArgs ?? {});
  const parsed = z.strictObject(def.input.shape).safeParse(args);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = issueField(issue);
  const valuePath = issue.code === "unrecognized_keys" && issue.keys.length === 1
    ? [...issue.path, issue.keys[0]]
    : issue.path;
  const value = valuePath.length > 0 ? valueAt(args, valuePath) : undefined;
  throw new ToolError(
    "INVALID_INPUT",
    `Invalid argument '${field || "(arguments)"}': ${issue.message}`,
    specificHint(def, issue, field, value) ??
      `Fix '${field || "arguments"}' to match the ${def.name} input schema (see tools/list) and call again.`,
    {
      invalidInput: {
        field: field || null,
        rule: issue.message,
        ...(value === undefined ? {} : { value: clipValue(value) }),
      },
    },
  );
}

/** A hint that names the fix: the real argument for an unknown one, the right tool for a wrong kind of id. */
function specificHint(def: AnyToolDef, issue: z.core.$ZodIssue, field: string, value: unknown): string | undefined {
  if (issue.code === "unrecognized_keys" && issue.path.length === 0 && issue.keys.length === 1) {
    const known = Object.keys(def.input.shape);
    const closest = closestArgument(issue.keys[0], known);
    const all = `${def.name} takes ${known.join(", ")}.`;
    return closest ? `Did you mean '${closest}'? ${all}` : all;
  }
  return wrongArticleIdHint(field, value) ?? def.inputHint?.(field, value);
}

function issueField(issue: z.core.$ZodIssue): string {
  const path = issue.path.map(String);
  if (issue.code === "unrecognized_keys") return issue.keys.map((key) => [...path, key].join(".")).join(", ");
  return path.join(".");
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let node = root;
  for (const key of path) {
    if (!node || typeof node !== "object" || !Object.hasOwn(node, key)) return undefined;
    node = (node as Record<PropertyKey, unknown>)[key];
  }
  return node;
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}\n${error.stack ?? ""}` : String(error);
}
