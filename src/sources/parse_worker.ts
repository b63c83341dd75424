/**
 * The parse thread (see parse_off_thread.ts): decodes a large upstream body, runs the named source parse
 * function on it and posts back the parsed record or the error, one body at a time. Deno needs read
 * permission for every local module a worker loads: this one loads parsers from all of src/sources/ and
 * the error classes of src/core/, which the server permission sets grant.
 */
import os from "node:os";
import { cleanRetrievedText } from "../core/control_chars.ts";
import { PARSE_JOBS } from "./parse_jobs.ts";
import { type ParseReply, type ParseRequest, sendError } from "./parse_protocol.ts";

/** Nice value of this thread on Linux, so the server's own thread (nice 0) gets the CPU first. */
const WORKER_NICE = 5;

// stdout carries the MCP protocol in stdio mode: nothing in this thread may write to it.
console.log = console.info = console.debug = (...args: unknown[]) => console.error(...args);

interface WorkerScope {
  onmessage: ((event: MessageEvent<ParseRequest>) => void) | null;
  postMessage(message: ParseReply): void;
}
const scope = globalThis as unknown as WorkerScope;
const decoder = new TextDecoder();

lowerPriority();

scope.onmessage = ({ data: request }) => {
  let reply: ParseReply;
  try {
    const job = PARSE_JOBS.get(request.job);
    if (!job) throw new Error(`no parse job named ${request.job} in parse_jobs.ts`);
    reply = {
      id: request.id,
      ok: true,
      value: job.parse(cleanRetrievedText(decoder.decode(request.body)), request.url, ...request.args as never[]),
    };
  } catch (error) {
    reply = { id: request.id, ok: false, error: sendError(error) };
  }
  try {
    scope.postMessage(reply);
  } catch (error) {
    scope.postMessage({ id: request.id, ok: false, error: sendError(error) });
  }
};
scope.postMessage({ ready: true });

/** Lowers this thread's priority where that affects this thread alone (Linux) and the permissions allow it. */
function lowerPriority(): void {
  if (Deno.build.os !== "linux") return;
  if (Deno.permissions.querySync({ name: "sys", kind: "setPriority" }).state !== "granted") return;
  try {
    os.setPriority(WORKER_NICE);
  } catch {
    // not permitted after all: normal priority
  }
}
