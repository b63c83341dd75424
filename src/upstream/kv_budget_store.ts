/**
 * The shared rate budget on Deno KV (SCIENCE_MCP_KV): a local SQLite file that several processes open,
 * a self-hosted `denokv` or a Deploy database reached by a KV Connect URL, or `default` — the runtime's
 * own database, which on Deno Deploy is the project's KV shared by all its isolates. Each queue's record lives under
 * one key and changes only through `atomic().check(versionstamp).set()`. SQLite reports contention by
 * throwing "database is locked" rather than by a failed check — opening included: two processes that
 * create one file at the same moment lock each other out for up to a second or so. Those throws are
 * contention, not a lost store, and are waited out here.
 */
import { type Clock, systemClock } from "../core/clock.ts";
import { ConfigError } from "../core/errors.ts";
import type { Logger } from "../core/log.ts";
import type { BudgetRecord, BudgetStore, Versioned } from "./shared_budget.ts";

/** The setting that turns the shared budget on; named in every refusal. */
export const KV_SETTING = "SCIENCE_MCP_KV";
/** Records outlive their last use by this long, then vanish (a per-minute window needs 60 s). */
const RECORD_TTL_MS = 10 * 60_000;
/**
 * How long a KV file may stay locked before it counts as failing (and the budget degrades to per-instance
 * pacing). Contention lasts milliseconds, and up to a second or so when two processes create the file at
 * once; only a file something else holds for this long is given up on.
 */
export const LOCKED_WAIT_MS = 10_000;

/** The runtime's own database: the project's KV on Deno Deploy (`Deno.openKv()` without a path). */
export const DEFAULT_KV = "default";

/** True for a KV Connect URL (denokv, Deploy); anything else is a file path or {@link DEFAULT_KV}. */
export function isKvUrl(location: string): boolean {
  return /^https?:\/\//i.test(location);
}

/**
 * Refuses, at start and in one line, a KV location this process could not use: Deno KV not enabled, or
 * the permission set does not grant the file (read and write) or the KV Connect host.
 *
 * @throws ConfigError naming SCIENCE_MCP_KV and the fix.
 */
export function checkKvLocation(location: string): void {
  if (typeof Deno.openKv !== "function") {
    throw new ConfigError(
      `${KV_SETTING} needs Deno KV, which this runtime has not enabled: run with --unstable-kv ` +
        `(this project's deno.json sets "unstable": ["kv"]).`,
    );
  }
  if (location === DEFAULT_KV) return;
  if (isKvUrl(location)) {
    const host = new URL(location).host;
    if (Deno.permissions.querySync({ name: "net", host }).state !== "granted") {
      throw new ConfigError(
        `${KV_SETTING}=${location} needs network access to ${host}: add --allow-net=${host} ` +
          `(or run with -P=stdio-open).`,
      );
    }
    return;
  }
  const denied = (["read", "write"] as const).filter((name) =>
    Deno.permissions.querySync({ name, path: location }).state !== "granted"
  );
  if (denied.length) {
    throw new ConfigError(
      `${KV_SETTING}=${location} needs ${denied.join(" and ")} access to that file: use a path under ./.cache ` +
        `(every permission set grants it), or add ${denied.map((d) => `--allow-${d}=${location}`).join(" ")}.`,
    );
  }
}

export interface KvBudgetStoreOptions {
  namespace?: string;
  /** Told when the KV file was deleted or replaced under the open handle. */
  log?: Logger;
  /** How often a KV file is checked for deletion or replacement. Default 5 s. */
  checkFileEveryMs?: number;
  /** Opens the database (tests inject a contended one). Default `Deno.openKv`. */
  openKv?: (path?: string) => Promise<Deno.Kv>;
  /** Paces the waits on a locked file. Default the system clock. */
  clock?: Clock;
}

/**
 * A {@link BudgetStore} on the KV at `location`, opened on first use (so a failure to open degrades the
 * budget with a warning instead of stopping the server). A failed open is tried again on the next use.
 * A KV file deleted or replaced while open is noticed (its inode changes or it is gone) and reopened,
 * with a warning: an open handle would otherwise keep budgeting on the unlinked file, alone, while new
 * instances share a new one.
 */
export function kvBudgetStore(location: string, options: KvBudgetStoreOptions = {}): BudgetStore & { close(): void } {
  const namespace = options.namespace ?? "science-mcp";
  const isFile = location !== DEFAULT_KV && !isKvUrl(location);
  let opening: Promise<Deno.Kv> | undefined;
  let kv: Deno.Kv | undefined;
  let inode: number | null = null;
  let checkedAt = -Infinity;
  let closed = false;
  const openKv = options.openKv ?? ((path?: string) => Deno.openKv(path));
  const locked = { clock: options.clock };
  const open = () => {
    opening ??= (async () => {
      if (isFile) await ensureParent(location);
      const handle = await unlocked(() => location === DEFAULT_KV ? openKv() : openKv(location), locked);
      if (closed) {
        handle.close();
        throw new Error("the shared rate budget store is closed");
      }
      if (isFile) inode = (await Deno.stat(location)).ino;
      checkedAt = Date.now();
      return kv = handle;
    })();
    opening.catch(() => (opening = undefined));
    return opening;
  };
  /** Reopens the file when it is no longer the one the handle has open. */
  const checkFile = async () => {
    if (!isFile || !kv || Date.now() - checkedAt < (options.checkFileEveryMs ?? 5_000)) return;
    checkedAt = Date.now();
    const now = await Deno.stat(location).then((s) => s.ino, () => undefined);
    if (now !== undefined && now === inode) return;
    options.log?.warn("shared rate budget file was deleted or replaced; reopening it", {
      kv: location,
      change: now === undefined ? "deleted" : "replaced",
    });
    kv.close();
    kv = undefined;
    opening = undefined;
  };
  const key = (queue: string) => [namespace, "budget", queue];
  return {
    async read(queue): Promise<Versioned> {
      await checkFile();
      const db = await open();
      const entry = await unlocked(() => db.get<BudgetRecord>(key(queue), { consistency: "strong" }), locked);
      return { record: entry.value ?? undefined, version: entry.versionstamp };
    },
    async commit(queue, version, record) {
      const db = await open();
      const result = await unlocked(
        () =>
          db.atomic().check({ key: key(queue), versionstamp: version }).set(key(queue), record, {
            expireIn: RECORD_TTL_MS,
          }).commit(),
        locked,
      );
      return result.ok;
    },
    close() {
      closed = true;
      kv?.close();
      kv = undefined;
    },
  };
}

/**
 * Runs a KV operation, retrying SQLite's "database is locked" (thrown, not returned) after a short,
 * jittered pause that grows to 100 ms, for up to `waitMs` (default {@link LOCKED_WAIT_MS}). A count of
 * tries was not enough: on a loaded machine twenty quick ones ended inside one open's contention, and the
 * throw degraded the shared budget for 30 s, two processes then pacing alone at twice the rate.
 */
export async function unlocked<T>(
  operation: () => Promise<T>,
  options: { waitMs?: number; clock?: Clock } = {},
): Promise<T> {
  const clock = options.clock ?? systemClock;
  const until = clock.now() + (options.waitMs ?? LOCKED_WAIT_MS);
  for (let attempt = 0;; attempt++) {
    try {
      return await operation();
    } catch (error) {
      if (!/database is locked|SQLITE_BUSY/i.test(String(error)) || clock.now() >= until) throw error;
      await clock.sleep(Math.min(100, 2 + Math.random() * 5 * (attempt + 1)));
    }
  }
}

/** Creates the folder of a KV file when it is missing (a fresh clone has no ./.cache yet). */
async function ensureParent(path: string): Promise<void> {
  const slash = Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\"));
  if (slash <= 0) return;
  try {
    await Deno.mkdir(path.slice(0, slash), { recursive: true });
  } catch {
    // Exists already, or not ours to create: opening the file says what is wrong.
  }
}
