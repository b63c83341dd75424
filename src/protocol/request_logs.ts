/**
 * Log notifications of a 2026-07-28 request. The revision has no `logging/setLevel`: a request asks for
 * log messages by naming a level in `_meta` (`io.modelcontextprotocol/logLevel`), and without one it gets
 * none. The SDK's `ctx.mcpReq.log` applies exactly that rule, so the records of the request (matched by
 * its id) are handed to it, and travel on the request's own response stream.
 */
import type { Logger, LogRecord } from "../core/log.ts";
import { SERVER_NAME } from "../config.ts";
import type { ServerContext } from "../sdk.ts";

/** Starts forwarding the records of request `requestId`; returns the function that stops it. */
export function forwardRequestLogs(log: Logger, requestId: string, ctx: ServerContext): () => void {
  return log.addSink((record: LogRecord) => {
    if (record.request !== requestId) return;
    ctx.mcpReq.log(record.level, record, SERVER_NAME).catch(() => {});
  });
}
