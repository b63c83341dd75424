/**
 * Per-session log files (LOGS_DIR): one file per MCP session, named after the session's start time in UTC
 * (`YYYY-MM-DD_HH-MM-SS.log`, with `-2`, `-3`… appended when two sessions start in the same second).
 * Each line is a JSON record: every request (tool, arguments), its result or error, and the session's
 * warnings. Entries written through {@link SessionLog.log} pass the logger's secret redaction.
 */
import { ConfigError } from "./errors.ts";
import { createLogger, type Logger, type LogRecord } from "./log.ts";

/** The log file of one MCP session (LOGS_DIR). */
export interface SessionLog {
  /** Path of the file. */
  readonly path: string;
  /** A logger whose records go to this file only (redacted, every level). */
  readonly log: Logger;
  /** Appends a record that was already redacted (a sink of the runtime logger). */
  write(record: LogRecord): void;
  /** Flushes and closes the file. */
  close(): void;
}

const encoder = new TextEncoder();

/** `2026-01-31_23-59-58`: sortable, no characters that need quoting on any file system. */
export function sessionLogName(time: number): string {
  return new Date(time).toISOString().slice(0, 19).replace("T", "_").replaceAll(":", "-");
}

/**
 * Fails fast, naming LOGS_DIR, when session logs could not be written there: the HTTP server opens a file
 * per session, and would otherwise start fine and then fail every initialize.
 */
export function assertLogsDirWritable(dir: string): void {
  const probe = `${dir.replace(/\/+$/, "")}/.write-probe-${crypto.randomUUID()}`;
  try {
    Deno.mkdirSync(dir, { recursive: true });
    Deno.writeFileSync(probe, new Uint8Array(), { createNew: true });
    Deno.removeSync(probe);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ConfigError(`LOGS_DIR=${JSON.stringify(dir)} is not writable (${reason}); fix it, or unset LOGS_DIR`);
  }
}

/** Creates `dir` when missing and opens a new, never-reused file for one session. */
export function openSessionLog(dir: string, startedAt: number, fields: Record<string, unknown> = {}): SessionLog {
  Deno.mkdirSync(dir, { recursive: true });
  const base = sessionLogName(startedAt);
  let file: Deno.FsFile | undefined;
  let path = "";
  for (let n = 1; !file; n++) {
    path = `${dir.replace(/\/+$/, "")}/${base}${n === 1 ? "" : `-${n}`}.log`;
    try {
      file = Deno.openSync(path, { write: true, createNew: true });
    } catch (error) {
      if (!(error instanceof Deno.errors.AlreadyExists) || n > 1000) throw error;
    }
  }
  const handle = file;
  let open = true;
  const write = (record: LogRecord) => {
    if (!open) return;
    const bytes = encoder.encode(JSON.stringify(record) + "\n");
    for (let done = 0; done < bytes.length;) done += handle.writeSync(bytes.subarray(done));
  };
  return {
    path,
    log: createLogger({ level: "debug", sinks: [write], fields }),
    write,
    close() {
      if (!open) return;
      open = false;
      handle.close();
    },
  };
}
