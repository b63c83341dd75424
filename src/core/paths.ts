/**
 * The few path operations the start-up needs: the project folder from a module's URL, a relative folder
 * setting resolved against it, the entry module as the operator typed it. Written here instead of imported
 * from node:path and node:url, whose import loads Deno's Node.js path and URL modules (querystring,
 * punycode, …): a few ms of every cold start's CPU before tools/list (#36). Each function agrees with
 * node:path's posix or win32 variant, as the platform's (tests/core/paths_test.ts compares them).
 */

const WINDOWS = Deno.build.os === "windows";

/** The platform's path separator. */
export const SEP = WINDOWS ? "\\" : "/";

/** Whether `path` is absolute (node:path's `isAbsolute`): `/x`; on Windows also `\x`, `C:\x`, `C:/x`. */
export function isAbsolutePath(path: string, windows = WINDOWS): boolean {
  return windows ? /^(?:[A-Za-z]:)?[\\/]/.test(path) : path.startsWith("/");
}

/**
 * `path` (relative) resolved against the absolute folder `root`, `.` and `..` applied and no trailing
 * separator: node:path's `resolve(root, path)` for an absolute root.
 */
export function resolvePath(root: string, path: string, windows = WINDOWS): string {
  if (!windows) return "/" + segments(`${root}/${path}`, /\/+/).join("/");
  const [device, rest] = splitDevice(root);
  const drive = /^([A-Za-z]):/.exec(path);
  if (drive) {
    // A drive-relative path (`D:x`): on the root's drive it continues the root, elsewhere it starts at that
    // drive's top (node's answer when it knows no working folder on that drive).
    const sameDrive = device.toLowerCase() === `${drive[1]}:`.toLowerCase();
    const tail = path.slice(2);
    return sameDrive
      ? `${drive[1]}:\\${segments(`${rest}\\${tail}`, /[\\/]+/).join("\\")}`
      : `${drive[1]}:\\${segments(tail, /[\\/]+/).join("\\")}`;
  }
  return `${device}\\${segments(`${rest}\\${path}`, /[\\/]+/).join("\\")}`;
}

/** The path of a `file:` URL (node:url's `fileURLToPath`). */
export function fromFileUrl(url: URL, windows = WINDOWS): string {
  const path = decodeURIComponent(url.pathname);
  if (!windows) return path;
  if (url.hostname) return `\\\\${url.hostname}${path.replaceAll("/", "\\")}`;
  return path.replace(/^\/(?=[A-Za-z]:)/, "").replaceAll("/", "\\");
}

/**
 * `path` as written from inside `folder` (`/` separated) when it lies within it, else `path` unchanged:
 * how a command names a file for an operator standing in `folder`.
 */
export function withinFolder(folder: string, path: string, windows = WINDOWS): string {
  const sep = windows ? "\\" : "/";
  const base = folder.replace(/[\\/]+$/, "") + sep;
  const inside = windows ? path.toLowerCase().startsWith(base.toLowerCase()) : path.startsWith(base);
  return inside ? path.slice(base.length).split(sep).join("/") : path;
}

/** A Windows path's device (`C:` or `\\server\share`) and the rest. */
function splitDevice(path: string): [device: string, rest: string] {
  const unc = /^[\\/]{2}[^\\/]+[\\/]+[^\\/]+/.exec(path);
  if (unc) return [unc[0].replaceAll("/", "\\"), path.slice(unc[0].length)];
  const drive = /^[A-Za-z]:/.exec(path);
  return drive ? [drive[0], path.slice(2)] : ["", path];
}

/** The segments of a path with `.` and `..` applied (nothing climbs above the top). */
function segments(path: string, separator: RegExp): string[] {
  const out: string[] = [];
  for (const segment of path.split(separator)) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") out.pop();
    else out.push(segment);
  }
  return out;
}
