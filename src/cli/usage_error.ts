/** The CLI's usage error: its own file, so that `serve` reports one without loading the argument parser. */

/** A mistake in how the CLI was called (exit code 1), as opposed to a tool error (exit code 2). */
export class UsageError extends Error {
  override name = "UsageError";
}
