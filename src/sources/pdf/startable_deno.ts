/**
 * Whether this process may start the extractor's Deno process: asked by the pool when it makes its slots
 * (extractor.ts) and by `serve` at start (the worker-thread warning), without loading the extractor.
 */

/**
 * The Deno executable this process may start, or undefined when it may start none: Deno.execPath()
 * when the permissions allow it, else `deno` as the permission sets name it (`run: ["deno"]`). A
 * compiled binary is not Deno and cannot run the extractor's module from disk, so it never starts one.
 */
export function startableDeno(): string | undefined {
  if (Deno.build.standalone || new URL(import.meta.url).protocol !== "file:") return undefined;
  for (const command of [Deno.execPath(), "deno"]) {
    if (Deno.permissions.querySync({ name: "run", command }).state === "granted") return command;
  }
  return undefined;
}
