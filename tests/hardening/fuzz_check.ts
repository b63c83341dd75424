/**
 * The fuzzing oracle for one tool call: the call never throws a protocol error and never ends in
 * INTERNAL; an error is a well-formed envelope; arguments outside the schema are refused as INVALID_INPUT
 * naming the offending field; arguments inside it either succeed with output matching the schema or fail
 * with a specific code (an INVALID_INPUT then names a real field).
 */
import assert from "node:assert/strict";
import { z } from "zod";
import { ERROR_CODES, type ErrorCode } from "../../src/core/errors.ts";
import type { AnyToolDef } from "../../src/tools/tool_def.ts";
import type { Client } from "../../src/sdk_client.ts";

/**
 * Runs and seed of a fuzz test: FUZZ_RUNS (per tool; default 25, the CI size) and FUZZ_SEED (default a
 * fixed seed, so CI is reproducible; `random` for a new one each run, as `deno task fuzz` does; a number
 * replays a reported failure).
 */
export function fuzzSettings(scale = 1): { numRuns: number; seed?: number } {
  const runs = Number(Deno.env.get("FUZZ_RUNS") ?? 25) * scale;
  const seed = Deno.env.get("FUZZ_SEED") ?? "20250901";
  return seed === "random" ? { numRuns: runs } : { numRuns: runs, seed: Number(seed) };
}

export interface CallTally {
  ok: number;
  codes: Partial<Record<ErrorCode, number>>;
}

interface Envelope {
  code: string;
  message: string;
  recovery_hint: string;
  invalid_input?: unknown;
}

export async function checkCall(
  client: Client,
  def: AnyToolDef,
  args: Record<string, unknown>,
  tally: CallTally,
): Promise<void> {
  const valid = z.strictObject(def.input.shape).safeParse(asReceived(args)).success;
  const shown = () => JSON.stringify(args).slice(0, 300);
  let result;
  try {
    result = await client.callTool({ name: def.name, arguments: args });
  } catch (error) {
    assert.fail(`${def.name}: protocol error ${error} for ${shown()}`);
  }
  if (!result.isError) {
    tally.ok++;
    assert.ok(valid, `${def.name} accepted arguments outside its schema: ${shown()}`);
    assert.ok(def.output.safeParse(result.structuredContent).success, `${def.name}: output off schema for ${shown()}`);
    return;
  }
  const error = (result.structuredContent as { error?: Envelope } | undefined)?.error;
  assert.ok(error, `${def.name}: isError without an envelope for ${shown()}`);
  assert.ok(ERROR_CODES.includes(error.code as ErrorCode), `${def.name}: unknown code ${error.code}`);
  tally.codes[error.code as ErrorCode] = (tally.codes[error.code as ErrorCode] ?? 0) + 1;
  assert.notEqual(error.code, "INTERNAL", `${def.name}: INTERNAL (${error.message}) for ${shown()}`);
  assert.ok(error.message.trim() && error.recovery_hint.trim(), `${def.name}: empty message or hint`);
  if (!valid) {
    assert.equal(error.code, "INVALID_INPUT", `${def.name}: invalid arguments gave ${error.code}: ${shown()}`);
  }
  if (error.code === "INVALID_INPUT") {
    const named = namedFields(error.invalid_input);
    // An unrecognized key that is the empty string cannot be named usefully; anything else must be.
    if (named.length === 0 && "" in args) return;
    assert.ok(named.length > 0, `${def.name}: INVALID_INPUT names no field: ${shown()}`);
    const known = new Set([...Object.keys(def.input.shape), ...Object.keys(args)]);
    for (const name of named) {
      assert.ok(
        known.has(name) || known.has(name.split(".")[0]),
        `${def.name}: INVALID_INPUT names '${name}', not an argument path`,
      );
    }
    assert.ok(named.some((n) => error.message.includes(n)), `${def.name}: message does not name ${named.join(", ")}`);
  }
}

/**
 * The arguments as the server receives them: the SDK's request schema (a zod record) drops a top-level
 * own `__proto__` key before the server sees it, so it cannot be refused there (nested ones are).
 */
export function asReceived(args: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(args).filter(([key]) => key !== "__proto__"));
}

/** Field names in `invalid_input`: `{field: "a"}`, `{field: "a, b"}` (unrecognized keys) or `{fields: [...]}`. */
export function namedFields(invalid: unknown): string[] {
  const { field, fields } = (invalid ?? {}) as { field?: unknown; fields?: unknown };
  if (typeof field === "string" && field) return field.split(", ");
  if (Array.isArray(fields)) return fields.filter((f): f is string => typeof f === "string" && f.length > 0);
  return [];
}
