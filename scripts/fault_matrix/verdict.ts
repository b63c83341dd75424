/**
 * Judging one (tool × fault) outcome against the tool's un-faulted baseline. An error must be a specific
 * envelope (registry code other than INTERNAL, non-empty message and recovery_hint); a success under a
 * storm is suspect, and one with no items or no text where the baseline had them is an "empty success" —
 * the defect this whole matrix exists to catch.
 */
import { isDeepStrictEqual } from "node:util";
import { ERROR_CODES, type ErrorCode } from "../../src/core/errors.ts";
import type { FaultCase } from "./faults.ts";
import type { CallOutcome } from "./harness.ts";

export type Grade = "pass" | "warn" | "fail";

export interface Verdict {
  grade: Grade;
  /** Short cell text: the error code, or `ok`. */
  cell: string;
  /** Why it is not a plain pass. */
  problem?: string;
}

/** How much a result holds: array elements and characters of string leaves, counted recursively. */
export function substance(value: unknown): { items: number; chars: number } {
  const total = { items: 0, chars: 0 };
  const walk = (v: unknown) => {
    if (typeof v === "string") total.chars += v.trim().length;
    else if (Array.isArray(v)) {
      total.items += v.length;
      v.forEach(walk);
    } else if (v && typeof v === "object") Object.values(v).forEach(walk);
  };
  walk(value);
  return total;
}

/**
 * "Empty success": no error flag, yet nothing where the un-faulted call had content — an empty text
 * block, no text at all, or no items left with less than half the text (an empty list next to echoed
 * arguments). A result that lost its items but kept its text is "garbage", judged below.
 */
export function isEmptySuccess(outcome: CallOutcome, baseline: CallOutcome): boolean {
  if (outcome.isError || baseline.isError) return false;
  const got = substance(outcome.structured);
  const want = substance(baseline.structured);
  if (outcome.text.trim() === "" || (want.chars > 0 && got.chars === 0)) return true;
  return want.items > 0 && got.items === 0 && got.chars <= want.chars / 2;
}

export function envelopeProblem(outcome: CallOutcome): string | undefined {
  const error = (outcome.structured as { error?: Record<string, unknown> } | undefined)?.error;
  if (!error) return "isError without structuredContent.error";
  if (!ERROR_CODES.includes(error.code as ErrorCode)) return `code ${JSON.stringify(error.code)} not in the registry`;
  if (typeof error.message !== "string" || !error.message.trim()) return "empty message";
  if (typeof error.recovery_hint !== "string" || !error.recovery_hint.trim()) return "empty recovery_hint";
  return undefined;
}

export function errorOf(outcome: CallOutcome): { code: string; message: string } | undefined {
  const error = (outcome.structured as { error?: { code: string; message: string } } | undefined)?.error;
  return outcome.isError && error ? error : undefined;
}

export function judge(fault: FaultCase, outcome: CallOutcome, baseline: CallOutcome): Verdict {
  if (outcome.thrown) return { grade: "fail", cell: "THROWN", problem: `protocol error: ${outcome.thrown}` };
  if (outcome.isError) {
    const bad = envelopeProblem(outcome);
    if (bad) return { grade: "fail", cell: "BAD", problem: bad };
    const { code, message } = errorOf(outcome)!;
    if (code === "INTERNAL") return { grade: "fail", cell: code, problem: `INTERNAL: ${message}` };
    if (fault.expect === "recover") {
      return { grade: "fail", cell: code, problem: `did not recover from a transient fault: ${message}` };
    }
    if (!fault.codes.includes(code as ErrorCode)) {
      return { grade: "warn", cell: code, problem: `questionable code for "${fault.label}": ${message}` };
    }
    return { grade: "pass", cell: code };
  }
  if (isEmptySuccess(outcome, baseline)) {
    return { grade: "fail", cell: "EMPTY", problem: `empty success: ${clip(outcome.text)}` };
  }
  const same = isDeepStrictEqual(portless(outcome.structured), portless(baseline.structured));
  if (fault.expect === "recover") {
    if (baseline.isError) return { grade: "warn", cell: "ok", problem: "succeeded although the baseline failed" };
    return same ? { grade: "pass", cell: "ok" } : {
      grade: "warn",
      cell: "ok~",
      problem: `recovered, but the result differs from the baseline: ${diffKeys(outcome, baseline)}`,
    };
  }
  if (same) {
    return { grade: "warn", cell: "ok=", problem: "identical to the baseline although every request was faulted" };
  }
  return {
    grade: "fail",
    cell: "GARBAGE",
    problem: `success built from a faulted answer (differs in ${diffKeys(outcome, baseline)}): ${clip(outcome.text)}`,
  };
}

/** Each case has its own mock on its own port: URLs in results differ by the port alone. */
function portless(value: unknown): Record<string, unknown> {
  return JSON.parse(JSON.stringify(value ?? {}).replace(/(127\.0\.0\.1|localhost|\[::1\]):\d+/g, "$1:PORT"));
}

function diffKeys(a: CallOutcome, b: CallOutcome): string {
  const x = portless(a.structured);
  const y = portless(b.structured);
  const keys = [...new Set([...Object.keys(x), ...Object.keys(y)])].filter((k) => !isDeepStrictEqual(x[k], y[k]));
  return keys.join(", ") || "(nothing at top level)";
}

function clip(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > 160 ? `${flat.slice(0, 159)}…` : flat;
}
