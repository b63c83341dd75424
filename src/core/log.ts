/**
 * Structured logging. Lines go to stderr as JSON (stdout belongs to the protocol in stdio mode); sinks
 * can be added (MCP logging notifications, per-session files). Secrets are redacted before any sink.
 */
import { type ClipLimits, type ClipMap, clipValue } from "./clip.ts";
import { type Clock, systemClock } from "./clock.ts";

/** MCP's (syslog's) log levels, least severe first. */
export type LogLevel = "debug" | "info" | "notice" | "warning" | "error" | "critical" | "alert" | "emergency";
/** Every {@link LogLevel}, least severe first. */
export const LOG_LEVELS: readonly LogLevel[] = [
  "debug",
  "info",
  "notice",
  "warning",
  "error",
  "critical",
  "alert",
  "emergency",
];

/** One log line (a JSON object on stderr). */
export interface LogRecord {
  /** ISO 8601 time of the record. */
  time: string;
  /** Its level. */
  level: LogLevel;
  /** What happened. */
  msg: string;
  /** Structured fields (request id, tool, upstream, …), redacted and bounded. */
  [key: string]: unknown;
}
/** Where records go (stderr, a session file, MCP log notifications). */
export type LogSink = (record: LogRecord) => void;

/** Structured logging; every record is redacted (no keys, tokens or e-mails) and bounded in size. */
export interface Logger {
  /** Logs at `level`. */
  log(level: LogLevel, msg: string, fields?: Record<string, unknown>): void;
  /** Logs at debug. */
  debug(msg: string, fields?: Record<string, unknown>): void;
  /** Logs at info. */
  info(msg: string, fields?: Record<string, unknown>): void;
  /** Logs at warning. */
  warn(msg: string, fields?: Record<string, unknown>): void;
  /** Logs at error. */
  error(msg: string, fields?: Record<string, unknown>): void;
  /** A logger that adds `fields` to every record (e.g. a request id) and writes to the same sinks. */
  child(fields: Record<string, unknown>): Logger;
  /** Adds a sink; returns a function that removes it. */
  addSink(sink: LogSink): () => void;
}

const SECRET_PARAMS = /([?&](?:api_key|email|mailto|token|key)=)[^&\s"]*/gi;
const BEARER = /(Bearer\s+)[A-Za-z0-9._~+/=-]+/g;

/** Removes secrets from text: query parameters that carry keys or e-mails, bearer tokens. */
export function redact(text: string): string {
  // Both patterns need one of these literally: most logged text (titles, abstracts) has neither.
  if (!text.includes("=") && !text.includes("Bearer")) return text;
  return text.replace(SECRET_PARAMS, "$1REDACTED").replace(BEARER, "$1REDACTED");
}

/** Bounds of a log record: wide enough for stack traces and result summaries, never a whole document. */
const LOG_LIMITS: ClipLimits = { chars: 4000, items: 100, depth: 8 };
const SECRET_KEY = /^(api_?key|authorization|secret|password|token)$/i;

/** The log's changes to a clipped copy: strings redacted, secret-named keys' values replaced. */
const LOG_MAP: ClipMap = {
  text: redact,
  keyed: (key) => SECRET_KEY.test(key) ? "REDACTED" : undefined,
};

/**
 * What a sink receives of `value`: `clipValue(value, LOG_LIMITS)` with every string redacted and the value
 * of every secret-named key replaced, in one walk and one copy (a session log writes whole results, and a
 * result-memo hit is otherwise cheap: two walks of a 6 KB result were most of its cost).
 */
export function logSafe(value: unknown, limits: ClipLimits = LOG_LIMITS, depth = 0): unknown {
  return clipValue(value, limits, depth, LOG_MAP);
}

export function createLogger(
  options: { level?: LogLevel; sinks?: LogSink[]; fields?: Record<string, unknown>; clock?: Pick<Clock, "now"> } = {},
): Logger {
  const sinks = options.sinks ?? [stderrSink];
  const clock = options.clock ?? systemClock;
  const min = LOG_LEVELS.indexOf(options.level ?? "info");
  return build(options.fields ?? {});

  function build(base: Record<string, unknown>): Logger {
    const log = (level: LogLevel, msg: string, fields: Record<string, unknown> = {}) => {
      if (LOG_LEVELS.indexOf(level) < min) return;
      const record = logSafe({
        time: new Date(clock.now()).toISOString(),
        level,
        msg,
        ...base,
        ...fields,
      }) as LogRecord;
      for (const sink of sinks) {
        try {
          sink(record);
        } catch { /* a broken sink must never break a request */ }
      }
    };
    return {
      log,
      debug: (m, f) => log("debug", m, f),
      info: (m, f) => log("info", m, f),
      warn: (m, f) => log("warning", m, f),
      error: (m, f) => log("error", m, f),
      child: (fields) => build({ ...base, ...fields }),
      addSink(sink) {
        sinks.push(sink);
        return () => {
          const i = sinks.indexOf(sink);
          if (i >= 0) sinks.splice(i, 1);
        };
      },
    };
  }
}

const encoder = new TextEncoder();
export function stderrSink(record: LogRecord): void {
  Deno.stderr.writeSync(encoder.encode(JSON.stringify(record) + "\n"));
}

/** A logger that keeps records in memory, for tests. */
export function memoryLogger(): Logger & { records: LogRecord[] } {
  const records: LogRecord[] = [];
  const logger = createLogger({ level: "debug", sinks: [(r) => records.push(r)] });
  return Object.assign(logger, { records });
}
