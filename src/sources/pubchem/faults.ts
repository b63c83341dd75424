/**
 * PUG REST faults → the server's error vocabulary. PubChem names its failures (`PUGREST.NotFound`,
 * `PUGREST.BadRequest`, `PUGREST.ServerBusy`, `PUGREST.Timeout`) and pairs each with an HTTP status;
 * the adapter turns them into codes a model can act on, with a hint that names the fix.
 */
import { ToolError, UpstreamError } from "../../core/errors.ts";
import { type PugFault, readFault } from "./pug_json.ts";

/** What the failing call was about, so a fault can name it. */
export interface FaultContext {
  /** What was not found, e.g. `No compound matches name 'asprin'`. */
  notFound: string;
  /** What to do instead, naming a tool. */
  notFoundHint: string;
  /** The input field PubChem judged when it answers BadRequest, and its value. */
  field: string;
  value?: unknown;
}

const BUSY_HINT = "PubChem is overloaded (PUGREST.ServerBusy); the server already retried with pacing. " +
  "Wait a minute and call again, with fewer or smaller requests.";
const TIMEOUT_HINT = "PubChem timed out (PUGREST.Timeout): the request is too broad. Narrow it " +
  "(fewer ids, a more specific structure, a higher similarity threshold) and call again.";

export function isTimeout(error: unknown): boolean {
  if (!(error instanceof UpstreamError)) return false;
  return error.status === 504 || readFault(error.body)?.code === "PUGREST.Timeout";
}

/**
 * Maps a failed PubChem request to a ToolError where PubChem said what went wrong; other failures
 * (network, size, unknown 5xx) are returned unchanged for the core's generic mapping.
 */
export function mapPubChemError(error: unknown, context: FaultContext): unknown {
  if (!(error instanceof UpstreamError) || error.kind !== "http") return error;
  const fault = readFault(error.body);
  return faultError(fault ?? statusFault(error.status), context, error) ?? error;
}

/** A fault found in a successful (2xx) body. */
export function faultInBody(fault: PugFault, context: FaultContext): ToolError {
  return faultError(fault, context) ?? new ToolError(
    "UPSTREAM_ERROR",
    `PubChem answered ${fault.code}: ${describe(fault)}`,
    "Retry shortly; if it persists the request may not be supported by PubChem.",
  );
}

function faultError(fault: PugFault | undefined, context: FaultContext, cause?: unknown): ToolError | undefined {
  if (!fault) return undefined;
  // PUG-View names the same faults PUGVIEW.* (NotFound, BadRequest, ServerBusy, Timeout).
  switch (fault.code.replace(/^PUGVIEW\./, "PUGREST.")) {
    case "PUGREST.NotFound": {
      const message = `${context.notFound} (PubChem: ${describe(fault)})`;
      return new ToolError("ENTITY_NOT_FOUND", message, context.notFoundHint, { cause });
    }
    case "PUGREST.BadRequest":
      return new ToolError(
        "INVALID_INPUT",
        `PubChem rejected '${context.field}': ${describe(fault)}`,
        `Fix '${context.field}' (check the syntax PubChem expects for it) and call again.`,
        { invalidInput: { field: context.field, value: context.value }, cause },
      );
    case "PUGREST.ServerBusy":
      return new ToolError("RATE_LIMITED", `PubChem is busy: ${describe(fault)}`, BUSY_HINT, { cause });
    case "PUGREST.Timeout":
      return new ToolError("UPSTREAM_ERROR", `PubChem timed out: ${describe(fault)}`, TIMEOUT_HINT, { cause });
    default:
      return undefined;
  }
}

/** PubChem's documented status ↔ fault pairs, for bodies that carry no Fault (an HTML 503 page). */
const STATUS_FAULTS: Record<number, string> = {
  400: "PUGREST.BadRequest",
  404: "PUGREST.NotFound",
  503: "PUGREST.ServerBusy",
  504: "PUGREST.Timeout",
};

function statusFault(status: number | undefined): PugFault | undefined {
  const code = status === undefined ? undefined : STATUS_FAULTS[status];
  return code ? { code, message: `HTTP ${status}`, details: [] } : undefined;
}

function describe(fault: PugFault): string {
  const parts = [fault.message, ...fault.details.map((d) => d.trim()).filter(Boolean)].filter(Boolean);
  return parts.join("; ").slice(0, 500) || fault.code;
}
