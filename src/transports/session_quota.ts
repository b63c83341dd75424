/**
 * Admission of new HTTP sessions: a global cap (MCP_MAX_SESSIONS) and a cap per token subject
 * (MCP_MAX_SESSIONS_PER_SUBJECT), so one token cannot lock every other client out. A refusal is a 503
 * that names the limit it hit, since the remedy differs: wait for others, or close one's own sessions.
 */
import { jsonRpcError } from "./http_io.ts";

export interface QuotaLimits {
  maxSessions: number;
  /** Undefined: no per-subject cap (MCP_AUTH_MODE=none has one anonymous subject, the loopback user). */
  maxPerSubject?: number;
}

export type QuotaVerdict =
  | { ok: true }
  | { ok: false; limit: "global" | "subject"; max: number };

/** Counts live sessions per subject. */
export class SubjectCounts {
  readonly #counts = new Map<string, number>();

  add(subject: string): void {
    this.#counts.set(subject, this.of(subject) + 1);
  }

  remove(subject: string): void {
    const left = this.of(subject) - 1;
    if (left > 0) this.#counts.set(subject, left);
    else this.#counts.delete(subject);
  }

  of(subject: string): number {
    return this.#counts.get(subject) ?? 0;
  }
}

/**
 * The sessions one subject may hold: MCP_MAX_SESSIONS_PER_SUBJECT, but never more than half of
 * MCP_MAX_SESSIONS (at least 1), so one token leaves room for others whatever the two settings are.
 */
export function subjectCap(limits: QuotaLimits): number | undefined {
  if (limits.maxPerSubject === undefined) return undefined;
  return Math.min(limits.maxPerSubject, Math.max(1, Math.floor(limits.maxSessions / 2)));
}

/** Whether one more session fits, given the live total and the subject's own count. */
export function checkQuota(total: number, ofSubject: number, limits: QuotaLimits): QuotaVerdict {
  const cap = subjectCap(limits);
  if (cap !== undefined && ofSubject >= cap) return { ok: false, limit: "subject", max: cap };
  if (total >= limits.maxSessions) return { ok: false, limit: "global", max: limits.maxSessions };
  return { ok: true };
}

/** The 503 for a refused initialize, saying which limit was hit and what to do. */
export function quotaRefusal(verdict: Extract<QuotaVerdict, { ok: false }>): Response {
  const message = verdict.limit === "subject"
    ? `Too many sessions for this token's subject: it already holds ${verdict.max} ` +
      `(MCP_MAX_SESSIONS_PER_SUBJECT, at most half of MCP_MAX_SESSIONS). Close unused sessions (DELETE /mcp) or retry later.`
    : `Too many sessions on this server: all ${verdict.max} are in use (MCP_MAX_SESSIONS); retry later.`;
  return jsonRpcError(503, -32000, message, { "retry-after": "30" });
}
