/**
 * Per-session log files (LOGS_DIR): one file per MCP session, named after the session's start time in UTC
 * (`YYYY-MM-DD_HH-MM-SS.log`, with `-2`, `-3`… appended when two sessions start in the same second).
 * Each line is a JSON record: every request (tool, arguments), its result or error, and the session's
 * warnings. Entries written through {@link SessionLog.log} pass the logger's secret redaction.
 *
 * The folder stays bounded: a file is created on a session's first record (a session that logs nothing
 * leaves nothing), a file that reaches `maxFileBytes` is rotated to `<name>.1.log` (one older part per
 * session), and each new file prunes the folder to `maxFiles` files and drops files older than `maxAgeMs`.
 * Only files named like session logs are ever removed.
 */
import { ConfigError } from "./errors.ts";
import { systemClock } from "./clock.ts";
import { createLogger, type Logger, type LogRecord, logSafe } from "./log.ts";

/** The log file of one MCP session (LOGS_DIR). */
export interface SessionLog {
  /** Path of the current file; undefined until the first record creates it. */
  readonly path: string | undefined;
  /** A logger whose records go to this file only (redacted, every level). */
  readonly log: Logger;
  /**
   * Logs a tool's successful result: the record `log.info("result", { ...fields, result })` would write.
   * A result is shared and never changed once made (src/core/result_memo.ts hands the same object to every
   * identical call), so its redacted, serialized form is made once per object: a repeated call's line costs
   * its few fields, not another walk and encoding of the whole result.
   */
  result(fields: Record<string, unknown>, result: object): void;
  /** Appends a record that was already redacted (a sink of the runtime logger). */
  write(record: LogRecord): void;
  /** Flushes and closes the file. */
  close(): void;
}

export interface SessionLogLimits {
  /** A file is rotated before it would grow past this. */
  maxFileBytes: number;
  /** Session log files kept in the folder, rotated parts included; the oldest go first. */
  maxFiles: number;
  /** Files last written longer ago than this are removed. */
  maxAgeMs: number;
}

/** What the README promises: 5 MiB per file, 100 files, 14 days. */
export const SESSION_LOG_LIMITS: Readonly<SessionLogLimits> = Object.freeze({
  maxFileBytes: 5 * 1024 * 1024,
  maxFiles: 100,
  maxAgeMs: 14 * 24 * 3600_000,
});

export interface SessionLogOptions {
  limits?: Partial<SessionLogLimits>;
  /** Called once when the folder cannot be written; the session then goes on without a file. */
  onError?: (error: unknown) => void;
}

const encoder = new TextEncoder();
/** Names this module writes, and the only names pruning removes. */
const LOG_NAME = /^\d{4}-\d{2}-\d{2}_\d{2}-\d{2}-\d{2}(?:-\d+)?(?:\.1)?\.log$/;

/** `2026-01-31_23-59-58`: sortable, no characters that need quoting on any file system. */
export function sessionLogName(time: number): string {
  return new Date(time).toISOString().slice(0, 19).replace("T", "_").replaceAll(":", "-");
}

/**
 * Fails fast, naming LOGS_DIR, when session logs could not be kept there: written (a file per session) and
 * listed (pruning reads the folder to keep it to 100 files). The HTTP server would otherwise start fine and
 * then log nothing.
 */
export function assertLogsDirWritable(dir: string): void {
  const probe = `${dir.replace(/\/+$/, "")}/.write-probe-${crypto.randomUUID()}`;
  try {
    Deno.mkdirSync(dir, { recursive: true });
    Deno.writeFileSync(probe, new Uint8Array(), { createNew: true });
    Deno.removeSync(probe);
    Deno.readDirSync(dir)[Symbol.iterator]().next();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ConfigError(
      `LOGS_DIR=${JSON.stringify(dir)} is not writable (${reason}); fix it, or set LOGS_DIR=off`,
    );
  }
}

/** A session's log; its file appears with the first record, in `dir` (created when missing). */
export function openSessionLog(
  dir: string,
  startedAt: number,
  fields: Record<string, unknown> = {},
  options: SessionLogOptions = {},
): SessionLog {
  const limits = { ...SESSION_LOG_LIMITS, ...options.limits };
  const folder = dir.replace(/\/+$/, "");
  const base = sessionLogName(startedAt);
  let handle: Deno.FsFile | undefined;
  let path: string | undefined;
  let size = 0;
  let open = true;

  const create = () => {
    Deno.mkdirSync(folder, { recursive: true });
    // Before the new file exists: a folder that cannot be listed (so not bounded) gets no file at all.
    pruneSessionLogs(folder, { ...limits, maxFiles: limits.maxFiles - 1 });
    for (let n = 1; !handle; n++) {
      const candidate = `${folder}/${base}${n === 1 ? "" : `-${n}`}.log`;
      try {
        handle = Deno.openSync(candidate, { write: true, createNew: true });
        path = candidate;
      } catch (error) {
        if (!(error instanceof Deno.errors.AlreadyExists) || n > 1000) throw error;
      }
    }
    size = 0;
  };
  const rotate = () => {
    handle?.close();
    handle = undefined;
    try {
      Deno.renameSync(path!, path!.replace(/\.log$/, ".1.log"));
    } catch {
      // Pruned by another session meanwhile: nothing to keep.
    }
    create();
  };
  const write = (record: LogRecord) => writeLine(encoder.encode(JSON.stringify(record) + "\n"));
  const writeLine = (bytes: Uint8Array) => {
    if (!open) return;
    try {
      if (!handle) create();
      else if (size > 0 && size + bytes.length > limits.maxFileBytes) rotate();
      for (let done = 0; done < bytes.length;) done += handle!.writeSync(bytes.subarray(done));
      size += bytes.length;
    } catch (error) {
      open = false;
      handle?.close();
      handle = undefined;
      options.onError?.(error);
    }
  };
  const log = createLogger({ level: "debug", sinks: [write], fields });
  return {
    get path() {
      return path;
    },
    log,
    result(extra, result) {
      if ("result" in fields || "result" in extra || Object.keys(extra).length > 20) {
        return log.info("result", { ...extra, result });
      }
      // The line JSON.stringify(record) makes, with "result" its last key: the record's head, then the part.
      const time = new Date(systemClock.now()).toISOString();
      const head = JSON.stringify(logSafe({ time, level: "info", msg: "result", ...fields, ...extra }));
      const tail = serializedResult(result);
      const line = encoder.encode(`${head.slice(0, -1)},"result":`);
      const bytes = new Uint8Array(line.length + tail.length);
      bytes.set(line);
      bytes.set(tail, line.length);
      writeLine(bytes);
    },
    write,
    close() {
      open = false;
      handle?.close();
      handle = undefined;
    },
  };
}

/** Each result's serialized, redacted form and the record's closing `}` and newline, by result object. */
const serialized = new WeakMap<object, Uint8Array>();

/** `result` as it appears in a log record (one level down: logSafe's depth 1), encoded, then `}\n`. */
function serializedResult(result: object): Uint8Array {
  let bytes = serialized.get(result);
  if (!bytes) {
    bytes = encoder.encode(`${JSON.stringify(logSafe(result, undefined, 1))}}\n`);
    serialized.set(result, bytes);
  }
  return bytes;
}

/**
 * Removes session log files older than `maxAgeMs`, then the oldest (by last write) beyond `maxFiles`.
 * `keep` (the file just created) is never removed. Errors are ignored: another session may prune too.
 */
export function pruneSessionLogs(dir: string, limits: SessionLogLimits, keep?: string): void {
  const files: { path: string; mtime: number }[] = [];
  for (const entry of Deno.readDirSync(dir)) {
    if (!entry.isFile || !LOG_NAME.test(entry.name)) continue;
    const path = `${dir}/${entry.name}`;
    try {
      files.push({ path, mtime: Deno.statSync(path).mtime?.getTime() ?? 0 });
    } catch {
      // Removed meanwhile.
    }
  }
  const cutoff = Date.now() - limits.maxAgeMs;
  const kept = files.filter((f) => f.path === keep || f.mtime >= cutoff || !remove(f.path));
  kept.sort((a, b) => a.mtime - b.mtime || a.path.localeCompare(b.path));
  let excess = kept.length - limits.maxFiles;
  for (const file of kept) {
    if (excess <= 0) break;
    if (file.path !== keep && remove(file.path)) excess--;
  }
}

function remove(path: string): boolean {
  try {
    Deno.removeSync(path);
    return true;
  } catch {
    return false;
  }
}
