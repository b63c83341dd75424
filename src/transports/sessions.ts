/**
 * Stateful HTTP sessions: one MCP Server and transport per session, over the shared Runtime. A session is
 * idle when none of its responses is still streaming and it has seen no request for
 * MCP_SESSION_IDLE_TIMEOUT_MS; idle sessions are reaped. At most MCP_MAX_SESSIONS live at once.
 */
import type { Clock } from "../core/clock.ts";
import type { Logger } from "../core/log.ts";
import type { Server, WebStandardStreamableHTTPServerTransport } from "../sdk.ts";

export interface Session {
  readonly id: string;
  /** JWT subject that opened the session; other subjects cannot use it. */
  readonly subject: string;
  readonly server: Server;
  readonly transport: WebStandardStreamableHTTPServerTransport;
  /** Its LOGS_DIR file, if any. */
  readonly logPath?: string;
  lastSeen: number;
  /** Responses of this session still streaming (an open GET stream, a long tools/call). */
  open: number;
}

export interface SessionStoreOptions {
  idleMs: number;
  max: number;
  clock: Clock;
  log: Logger;
}

export class SessionStore {
  readonly #sessions = new Map<string, Session>();
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

  add(session: Session): void {
    this.#sessions.set(session.id, session);
    this.#options.log.info("session opened", { session: session.id, sessions: this.#sessions.size });
  }

  /** Marks a response of the session as started; the returned function marks it finished (once). */
  begin(session: Session): () => void {
    session.open++;
    session.lastSeen = this.#options.clock.now();
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      session.open--;
      session.lastSeen = this.#options.clock.now();
    };
  }

  /** Drops a session whose transport has closed (DELETE, or closed by us). */
  forget(id: string, reason: string): void {
    if (this.#sessions.delete(id)) {
      this.#options.log.info("session closed", { session: id, reason, sessions: this.#sessions.size });
    }
  }

  /** Closes a session: its streams end and its server is disposed. */
  async close(id: string, reason: string): Promise<void> {
    const session = this.#sessions.get(id);
    if (!session) return;
    this.forget(id, reason);
    await session.server.close().catch(() => {});
  }

  /** Closes idle sessions; returns how many were closed. */
  async reap(): Promise<number> {
    const deadline = this.#options.clock.now() - this.#options.idleMs;
    const idle = [...this.#sessions.values()].filter((s) => s.open === 0 && s.lastSeen <= deadline);
    await Promise.all(idle.map((s) => this.close(s.id, "idle timeout")));
    return idle.length;
  }

  /** True when a new session fits, after reaping idle ones if the store is full. */
  async hasRoom(): Promise<boolean> {
    if (this.#sessions.size < this.#options.max) return true;
    await this.reap();
    return this.#sessions.size < this.#options.max;
  }

  /** Ends every standalone GET stream (shutdown: lets the server drain while calls finish). */
  endStreams(): void {
    for (const session of this.#sessions.values()) session.transport.closeStandaloneSSEStream();
  }

  async closeAll(reason: string): Promise<void> {
    await Promise.all([...this.#sessions.keys()].map((id) => this.close(id, reason)));
  }
}
