/**
 * Modules only some requests need (the HTTP transport, the CLI's commands, the prompt catalogue and its
 * completion sources), imported by a computed URL the first time. Deno follows every literal `import("…")`
 * while it builds the module graph at start, reading each file it reaches whether or not it ever runs
 * (~4 ms of a cold start for these); a computed specifier is read only when it is imported, which needs
 * read access to src/ (every permission set grants it). A bundle or a compiled binary has no such files:
 * its entry (mod.ts, through src/cli/preload.ts) provides the modules it already holds.
 */

const provided = new Map<string, unknown>();
const SOURCE = new URL("../", import.meta.url);

/** Registers modules already evaluated, by their path under src/ (e.g. `transports/http_server.ts`). */
export function provideModules(modules: Readonly<Record<string, unknown>>): void {
  for (const [path, module] of Object.entries(modules)) provided.set(path, module);
}

/** Imports in progress or done, by path: a module used on every call (the call path) is resolved once. */
const imported = new Map<string, Promise<unknown>>();

/**
 * The module at `path` under src/: the provided one, else imported now (once: later calls get the same
 * promise; a failed import is forgotten, so the next call tries again).
 */
export function onDemand<T>(path: string): Promise<T> {
  if (provided.has(path)) return Promise.resolve(provided.get(path) as T);
  let module = imported.get(path);
  if (!module) {
    module = import(new URL(path, SOURCE).href);
    imported.set(path, module);
    module.catch(() => imported.get(path) === module && imported.delete(path));
  }
  return module as Promise<T>;
}
