/**
 * Stateful HTTP sessions: one MCP Server and transport per session, over the shared Runtime. A session
 * is reaped when its client has sent nothing for MCP_SESSION_IDLE_TIMEOUT_MS and no call of it is still
 * running (an open GET stream alone does not keep it: a silent listener would hold its slot forever), or
 * when the token that opened it has expired. New sessions are admitted under the quotas of
 * session_quota.ts.
 */
import type { Clock } from "../core/clock.ts";
import type { Logger } from "../core/log.ts";
import type { SessionLog } from "../core/session_log.ts";
import type { Server, WebStandardStreamableHTTPServerTransport } from "../sdk.ts";
import type { Inflight } from "./inflight.ts";
import { checkQuota, type QuotaLimits, type QuotaVerdict, SubjectCounts } from "./session_quota.ts";
import { SESSION_CLOSED } from "./shutdown.ts";

export interface Session {
  readonly id: string;
  /** JWT subject that opened the session; other subjects cannot use it. */
  readonly subject: string;
  readonly server: Server;
  readonly transport: WebStandardStreamableHTTPServerTransport;
  /** Requests of this session not answered yet. */
  readonly inflight: Inflight;
  /** Its LOGS_DIR log, if any (the file appears with its first record). */
  readonly log?: SessionLog;
  /** Last request of the client, or end of its last call. */
  lastSeen: number;
  /** POST responses of this session still streaming (calls in progress). */
  calls: number;
  /** `exp` of the latest token used with this session (ms); undefined without authentication. */
  expiresAt?: number;
}

export interface SessionStoreOptions {
  idleMs: number;
  limits: QuotaLimits;
  clock: Clock;
  log: Logger;
}

/**
 * A slot granted to an initialize in progress: it counts against the quotas at once, so concurrent
 * initializes cannot all pass the check before any of them is added.
 */
export interface Admission {
  readonly subject: string;
  /** Gives the slot back: the initialize failed and no session was added. */
  release(): void;
}

export class SessionStore {
  readonly #sessions = new Map<string, Session>();
  /** Sessions of each subject, slots reserved by initializes in progress included. */
  readonly #subjects = new SubjectCounts();
  readonly #reserved = new Set<Admission>();
  readonly #options: SessionStoreOptions;

  constructor(options: SessionStoreOptions) {
    this.#options = options;
  }

  get size(): number {
    return this.#sessions.size;
  }

  get(id: string): Session | undefined {
    return this.#sessions.get(id);
  }

  /** Adds an initialized session in the slot its admission reserved. */
  add(session: Session, admission: Admission): void {
    if (!this.#reserved.delete(admission)) this.#subjects.add(session.subject);
    this.#sessions.set(session.id, session);
    this.#options.log.info("session opened", { session: session.id, sessions: this.#sessions.size });
  }

  /** A request of the client: the session is active, and carries the token it was sent with. */
  touch(session: Session, expiresAt: number | undefined): void {
    session.lastSeen = this.#options.clock.now();
    if (expiresAt !== undefined) session.expiresAt = expiresAt;
  }

  /** Marks a call (a POST response) as started; the returned function marks it finished (once). */
  beginCall(session: Session): () => void {
    session.calls++;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      session.calls--;
      session.lastSeen = this.#options.clock.now();
    };
  }

  /** Drops a session whose transport has closed (DELETE, or closed by us). */
  forget(id: string, reason: string): void {
    const session = this.#sessions.get(id);
    if (!session) return;
    this.#sessions.delete(id);
    this.#subjects.remove(session.subject);
    session.log?.close();
    this.#options.log.info("session closed", { session: id, reason, sessions: this.#sessions.size });
  }

  /**
   * Closes a session: unanswered calls get a JSON-RPC error saying why, then its streams end and its
   * server is disposed.
   */
  async close(id: string, reason: string, message = `The session was closed (${reason}).`): Promise<void> {
    const session = this.#sessions.get(id);
    if (!session) return;
    this.forget(id, reason);
    await session.inflight.fail(SESSION_CLOSED, message);
    await session.server.close().catch(() => {});
  }

  /** Closes idle sessions and sessions whose token has expired; returns how many were closed. */
  async reap(): Promise<number> {
    const now = this.#options.clock.now();
    const idleSince = now - this.#options.idleMs;
    const doomed: [Session, string, string][] = [];
    for (const s of this.#sessions.values()) {
      if (s.expiresAt !== undefined && s.expiresAt <= now) {
        doomed.push([s, "token expired", "The session's token expired: authenticate again and open a new session."]);
      } else if (s.calls === 0 && s.lastSeen <= idleSince) {
        doomed.push([s, "idle timeout", "The session was idle too long; open a new session."]);
      }
    }
    await Promise.all(doomed.map(([s, reason, message]) => this.close(s.id, reason, message)));
    return doomed.length;
  }

  /**
   * Reserves a slot for a new session of `subject` when it fits the quotas (reaping stale sessions
   * first when it would not); otherwise says which limit was hit.
   */
  async admit(subject: string): Promise<Exclude<QuotaVerdict, { ok: true }> | { ok: true; admission: Admission }> {
    let verdict = this.#check(subject);
    if (!verdict.ok) {
      await this.reap();
      verdict = this.#check(subject);
      if (!verdict.ok) return verdict;
    }
    const admission: Admission = {
      subject,
      release: () => {
        if (this.#reserved.delete(admission)) this.#subjects.remove(subject);
      },
    };
    this.#reserved.add(admission);
    this.#subjects.add(subject);
    return { ok: true, admission };
  }

  /** Ends every standalone GET stream (shutdown: lets the server drain while calls finish). */
  endStreams(): void {
    for (const session of this.#sessions.values()) session.transport.closeStandaloneSSEStream();
  }

  async closeAll(reason: string, message?: string): Promise<void> {
    await Promise.all([...this.#sessions.keys()].map((id) => this.close(id, reason, message)));
  }

  #check(subject: string): QuotaVerdict {
    const total = this.#sessions.size + this.#reserved.size;
    return checkQuota(total, this.#subjects.of(subject), this.#options.limits);
  }
}
