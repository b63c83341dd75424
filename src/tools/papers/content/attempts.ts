/**
 * The record of where fetch_content looked for full text. Every failed step says what it tried and why it
 * failed, so the final error names each (NOT_AVAILABLE), or — when every step failed only transiently
 * (throttled, timed out, server error) — says to retry instead (RATE_LIMITED / UPSTREAM_ERROR). URLs and
 * outcomes come from records and upstreams: each is cut to 200 characters (a 200,000-character pdf_url
 * came back whole).
 */
import { cutValue } from "../../../core/clip.ts";
import { ToolError, UpstreamError } from "../../../core/errors.ts";
import { PdfExtractionError } from "../../../sources/pdf/types.ts";
import { PublisherRefusal } from "../../../sources/publisher/guard.ts";
import type { TriedSource } from "./types.ts";

export interface Attempt {
  what: string;
  url: string;
  outcome: string;
  transient: boolean;
  throttled: boolean;
}

export class Attempts {
  readonly list: Attempt[] = [];

  /** Records a failed step; cancellation and programming errors are rethrown, not recorded. */
  fail(what: string, url: string, error: unknown): void {
    const { outcome, ...rest } = describe(error);
    this.list.push({ what, url: cutValue(url), outcome: cutValue(outcome), ...rest });
  }

  /** A step that fetched something unusable (an empty page, a landing page). */
  reject(what: string, url: string, outcome: string): void {
    this.list.push({ what, url: cutValue(url), outcome: cutValue(outcome), transient: false, throttled: false });
  }

  /** What was tried, for the answer's `tried` list (absent when nothing failed). */
  tried(): TriedSource[] | undefined {
    return this.list.length
      ? this.list.map(({ what, url, outcome }) => ({ what, request_url: url, outcome }))
      : undefined;
  }

  summary(): string {
    return this.list.map((a) => `${a.what} (${a.url}): ${a.outcome}`).join("; ");
  }

  /** The error for "nothing worked". */
  failure(subject: string, hint: string): ToolError {
    const tried = this.list.length ? ` Tried: ${this.summary()}.` : "";
    if (this.list.length > 0 && this.list.every((a) => a.transient)) {
      const throttled = this.list.some((a) => a.throttled);
      return new ToolError(
        throttled ? "RATE_LIMITED" : "UPSTREAM_ERROR",
        `Could not fetch the full text of ${subject} right now.${tried}`,
        "Retry in a minute; the sources answered but were throttled or failing.",
      );
    }
    return new ToolError("NOT_AVAILABLE", `No full text available for ${subject}.${tried}`, hint);
  }
}

function describe(error: unknown): Omit<Attempt, "what" | "url"> {
  const final = (outcome: string) => ({ outcome, transient: false, throttled: false });
  if (error instanceof PublisherRefusal) return final(`refused: ${error.message}`);
  if (error instanceof PdfExtractionError) return final(`PDF not extractable (${error.reason}): ${error.message}`);
  if (error instanceof UpstreamError) {
    if (error.kind === "aborted") throw error;
    if (error.status === 429 || error.kind === "policy") {
      return { outcome: "throttled (HTTP 429)", transient: true, throttled: true };
    }
    if (error.kind === "too_large") return final("too large to fetch");
    if (error.kind === "timeout" || error.kind === "network") {
      return { outcome: error.kind, transient: true, throttled: false };
    }
    // An answer that is not what the source serves (an outage page, another article): no proof of absence.
    if (error.kind === "parse") {
      return { outcome: `unusable answer: ${error.message}`, transient: true, throttled: false };
    }
    if (error.status === 404 || error.status === 410) return final(`not found (HTTP ${error.status})`);
    if (error.status === 401 || error.status === 403 || error.status === 451) {
      return final(`access denied (HTTP ${error.status}; pay-walled or blocked)`);
    }
    if ((error.status ?? 0) >= 500) {
      return { outcome: `server error (HTTP ${error.status})`, transient: true, throttled: false };
    }
    return final(error.status ? `HTTP ${error.status}` : error.kind);
  }
  if (error instanceof ToolError) return final(error.message.replace(/\.$/, ""));
  throw error;
}
