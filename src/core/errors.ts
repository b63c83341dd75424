/**
 * The one error vocabulary of the server. Every tool failure, whatever its cause, leaves as an
 * {@link ErrorEnvelope} with `isError: true`, so a model always gets a code to branch on and a hint to act on.
 */
import { clipValue } from "./clip.ts";

/** Every error code an envelope may carry, in order of how much the caller is at fault. */
export const ERROR_CODES = [
  "INVALID_INPUT",
  "UNRESOLVED_ENTITY",
  "ENTITY_NOT_FOUND",
  "AMBIGUOUS_QUERY",
  "RATE_LIMITED",
  "UPSTREAM_ERROR",
  "NOT_AVAILABLE",
  "PAYLOAD_TOO_LARGE",
  "INTERNAL",
] as const;
/** One of {@link ERROR_CODES}. */
export type ErrorCode = typeof ERROR_CODES[number];

/** What a caller gets back from any failed tool call (as `structuredContent.error`). */
export interface ErrorEnvelope {
  /** What kind of failure: the code a caller branches on. */
  code: ErrorCode;
  /** What failed, in one sentence. */
  message: string;
  /** What to do next: the tool or argument to use instead, or when to retry. */
  recovery_hint: string;
  /** The offending input, clipped, when the input was at fault. */
  invalid_input?: unknown;
}

/** A configuration error names the variable and the rule, so startup failures are fixable at a glance. */
export class ConfigError extends Error {
  /** Always `ConfigError`. */
  override name = "ConfigError";
}

/** A failure a tool means to report: it becomes the caller's error envelope unchanged. */
export class ToolError extends Error {
  /** Always `ToolError`. */
  override name = "ToolError";
  /**
   * A failure with its code and hint.
   * @param code The envelope's code.
   * @param message What failed.
   * @param recoveryHint What to do next.
   */
  constructor(
    /** The envelope's code. */
    readonly code: ErrorCode,
    message: string,
    /** The envelope's recovery hint. */
    readonly recoveryHint: string,
    options: { invalidInput?: unknown; cause?: unknown } = {},
  ) {
    super(message, { cause: options.cause });
    this.invalidInput = options.invalidInput;
  }
  /** The offending input, when the input was at fault. */
  readonly invalidInput?: unknown;

  /** The error as the caller receives it. */
  toEnvelope(): ErrorEnvelope {
    const envelope: ErrorEnvelope = { code: this.code, message: this.message, recovery_hint: this.recoveryHint };
    if (this.invalidInput !== undefined) envelope.invalid_input = this.invalidInput;
    return envelope;
  }
}

/** What went wrong with an upstream request: the pipeline's classification, which picks the recovery hint. */
export type UpstreamErrorKind =
  | "network"
  | "timeout"
  | "http"
  | "parse"
  | "policy"
  | "too_large"
  | "aborted"
  | "permission"
  | "unreachable"
  | "redirect";

/**
 * Any failure talking to an upstream service. `url` is already redacted (no api_key/email), so the error
 * can be logged and shown as is. `body` holds the first few KiB of an HTTP error body, for parsers that
 * read structured faults (a JSON `Fault`, an XML `<ERROR>`).
 */
export class UpstreamError extends Error {
  /** Always `UpstreamError`. */
  override name = "UpstreamError";
  /** The classification of the failure. */
  readonly kind: UpstreamErrorKind;
  /** The upstream's name (src/upstreams/). */
  readonly upstream: string;
  /** The request URL, redacted. */
  readonly url: string;
  /** The HTTP status, when an answer came. */
  readonly status?: number;
  /** How long the upstream asked to wait (Retry-After), in ms. */
  readonly retryAfterMs?: number;
  /** The first few KiB of an HTTP error body. */
  readonly body?: string;
  /** Builds the error from its parts (`url` already redacted). */
  constructor(init: {
    kind: UpstreamErrorKind;
    upstream: string;
    url: string;
    message: string;
    status?: number;
    retryAfterMs?: number;
    body?: string;
    cause?: unknown;
  }) {
    super(init.message, { cause: init.cause });
    this.kind = init.kind;
    this.upstream = init.upstream;
    this.url = init.url;
    this.status = init.status;
    this.retryAfterMs = init.retryAfterMs;
    this.body = init.body;
  }
}

/** Which advice a failed upstream call needs: rate-limit advice (API keys…) only ever for rate limits. */
export type HintSituation = "rate_limited" | "unreachable" | "failed";

/** The recovery hint of an upstream, by name and situation (each upstream definition carries its own). */
export type RecoveryHints = (upstream: string, situation: HintSituation) => string | undefined;

/**
 * The reason a tool call's signal aborts when its deadline passes: one budget for the whole call,
 * retries and waits included. Names the budget and the setting that changes it.
 */
export class DeadlineError extends Error {
  /** Always `DeadlineError`. */
  override name = "DeadlineError";
  /** What the call was waiting for when the deadline passed, when a handler can tell (e.g. a starting PDF extractor). */
  detail?: string;
  constructor(readonly ms: number, readonly setting: string) {
    super(`the ${Math.ceil(ms / 1000)} s deadline of this tool call passed (set ${setting} to change it)`);
  }
}

const DEFAULT_UPSTREAM_HINT = "Retry shortly; the upstream service may be unavailable.";
const DEFAULT_RATE_HINT = "Wait, then retry; calls are queued at the service's published rate.";
const REDIRECT_HINT = "Retrying will not help: the service sent this request to a host this server does not " +
  "follow; the operator should check the service's base URL setting.";
const UNREACHABLE_HINT = "Retrying will not help until the host is reachable: check the network connection.";

/**
 * Maps any thrown value to the envelope a caller sees. Unknown errors become INTERNAL without details.
 * `hints` supplies the recovery hint of the upstream an UpstreamError names.
 */
export function toErrorEnvelope(error: unknown, hints?: RecoveryHints): ErrorEnvelope {
  if (error instanceof ToolError) return error.toEnvelope();
  if (error instanceof UpstreamError) return upstreamEnvelope(error, hints);
  return {
    code: "INTERNAL",
    message: "Internal error while running the tool; it has been logged.",
    recovery_hint: "Retry once; if it persists, report it with the request id from the server log.",
  };
}

function upstreamEnvelope(error: UpstreamError, hints: RecoveryHints | undefined): ErrorEnvelope {
  const hint = (situation: HintSituation, fallback: string) => hints?.(error.upstream, situation) ?? fallback;
  if (error.status === 429 || error.kind === "policy") {
    const wait = error.retryAfterMs ? `Retry after ${Math.ceil(error.retryAfterMs / 1000)} s. ` : "";
    return {
      code: "RATE_LIMITED",
      message: error.message,
      recovery_hint: `${wait}${hint("rate_limited", DEFAULT_RATE_HINT)}`,
    };
  }
  if (error.kind === "redirect") {
    return { code: "UPSTREAM_ERROR", message: error.message, recovery_hint: REDIRECT_HINT };
  }
  if (error.kind === "unreachable") {
    return { code: "UPSTREAM_ERROR", message: error.message, recovery_hint: hint("unreachable", UNREACHABLE_HINT) };
  }
  if (error.kind === "permission") {
    return {
      code: "NOT_AVAILABLE",
      message: error.message,
      recovery_hint: "The operator must grant this host: add it with --allow-net, or run with -P=stdio-open " +
        "(any host); retrying will not help.",
    };
  }
  if (error.kind === "too_large") {
    return {
      code: "PAYLOAD_TOO_LARGE",
      message: error.message,
      recovery_hint: "Ask for less: fewer ids, a smaller page or a narrower detail level.",
    };
  }
  return { code: "UPSTREAM_ERROR", message: error.message, recovery_hint: hint("failed", DEFAULT_UPSTREAM_HINT) };
}

/** Shorthand for the most common error: the caller's input broke a rule. */
export function invalidInput(field: string, rule: string, value?: unknown, hint?: string): ToolError {
  return new ToolError("INVALID_INPUT", `Invalid input '${field}': ${rule}`, hint ?? `Fix '${field}' and call again.`, {
    invalidInput: value === undefined ? { field } : { field, value: clipValue(value) },
  });
}
