/**
 * What every transport shares on the way out: the signals it stops on and the JSON-RPC code of the calls
 * it cuts off. Its own file so that stdio does not load the HTTP transport to read two constants.
 */

/** JSON-RPC error for calls cut off by a closing session (implementation-defined server error range). */
export const SESSION_CLOSED = -32000;

/** SIGTERM cannot be listened for on Windows; SIGINT (Ctrl-C) can everywhere. */
export function shutdownSignals(): Deno.Signal[] {
  return Deno.build.os === "windows" ? ["SIGINT"] : ["SIGINT", "SIGTERM"];
}
