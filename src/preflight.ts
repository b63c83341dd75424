/**
 * Start-up check that this process may do what its settings ask: read every setting, reach each
 * configured upstream host, listen where the HTTP server listens, read PDF_ROOT, write LOGS_DIR and the
 * cache. `Deno.permissions.querySync` answers without side effects, so a setting the permission set does
 * not cover stops the server at start with one line (the setting, the permission, the command that
 * grants it) instead of failing tool calls later with a stack trace. The needs come from the `access` of
 * each setting in ENV_VARS (base URLs get theirs from the upstream table), so settings and upstreams
 * added later are covered without editing this file.
 */
import { fromFileUrl, withinFolder } from "./core/paths.ts";
import {
  type Config,
  ConfigError,
  type Env,
  ENV_VARS,
  isKeyword,
  PROJECT_ROOT,
  settingValue,
  type ToolsetName,
} from "./config.ts";
import { assertLogsDirWritable } from "./core/session_log.ts";
import { baseUrlVars } from "./upstream/def.ts";
import { UPSTREAMS } from "./upstreams/table.ts";

/** How the process was started, to name the command that grants what is missing. */
export interface Launch {
  /** The permission set of the command (`-P=<set>`): stdio, http, cli. */
  set: string;
  /** The command with `{flags}` where grant flags go, e.g. `deno run -P=stdio{flags} {entry} serve`. */
  command: string;
  /**
   * The command's own flags are not known here (`deno serve --host/--port/--parallel`): the line then names
   * the flags to add to it instead of a whole command.
   */
  flagsOnly?: boolean;
  /** A task granting every loopback port (the local mock) for this command, e.g. `deno task start:mock`. */
  mockTask?: string;
  /** Where this process listens, and the setting (or flag) that chose the address. */
  listen?: { host: string; port: number; setting: "MCP_HTTP_PORT" | "MCP_HTTP_HOST" | "--port" };
  /** Toolsets whose needs count (a CLI call needs only its tool's). */
  toolsets: readonly ToolsetName[];
  /** The one tool a CLI call runs: a place only other tools write needs no write access for it. */
  tool?: string;
}

export type Permission = "net" | "read" | "write";

/** One thing a setting makes the process do. */
export interface Need {
  /** The setting (environment variable or flag) responsible; absent for the program's own files. */
  setting?: string;
  /** Its value as the operator gave it (or the default). */
  value: string;
  permission: Permission;
  /** `host:port` or a path. */
  target: string;
  /**
   * Not refused when missing (the default session-log folder: the server goes on without files), but
   * granted by any printed command, since its flag replaces the set's list.
   */
  soft?: true;
  /** The listen address (named last in a printed `--allow-net`, after the hosts to reach). */
  listen?: true;
}

export type Query = (descriptor: Deno.PermissionDescriptor) => Deno.PermissionState;

const querySync: Query = (descriptor) => Deno.permissions.querySync(descriptor).state;

/**
 * The server's own modules (src/), which a clone's server reads after start: a toolset's modules on its
 * first call (src/lazy_catalog.ts) and the PDF extraction worker's when it starts one.
 */
const SOURCE_DIR = PROJECT_ROOT === undefined
  ? undefined
  : fromFileUrl(new URL("./", import.meta.url)).replace(/[/\\]+$/, "");

/**
 * Stops before the environment is read when this run may not read the settings' variables (a bare
 * `deno run mod.ts` would otherwise prompt for each, or fail on the first with a stack trace).
 */
export function checkEnvPermission(launch: Launch, query: Query = querySync): void {
  const missing = ENV_VARS.map((v) => v.name).filter((name) => query({ name: "env", variable: name }) !== "granted");
  if (missing.length === 0) return;
  const shown = missing.length > 3
    ? `${missing.slice(0, 3).join(", ")} and ${missing.length - 3} more`
    : missing.join(", ");
  throw new ConfigError(
    `this run may not read the settings ${shown} (env permission); ` +
      (launch.flagsOnly
        ? `add its permission set to its command, before ${entryPath()}: -P=${launch.set}`
        : `start it with its permission set: ${command(launch, "")}`),
  );
}

/**
 * Everything the settings make this process do, in settings order: each setting of ENV_VARS that names a
 * place (its `access`), then the listen address and the server's own modules.
 */
export function settingNeeds(env: Env, launch: Launch): Need[] {
  const needs: Need[] = [];
  for (const v of ENV_VARS) {
    if (!v.access || (v.toolset && ![v.toolset].flat().some((t) => launch.toolsets.includes(t)))) continue;
    const place = settingValue(v, env, PROJECT_ROOT);
    if (!place || isKeyword(v, place)) continue;
    const value = env[v.name] || v.default || "";
    if (v.access === "url" || /^https?:\/\//i.test(place)) {
      needs.push({ setting: v.name, value, permission: "net", target: netTarget(place) });
      continue;
    }
    const onlyReads = launch.tool !== undefined && v.writers !== undefined && !v.writers.includes(launch.tool);
    const permissions = v.access === "read-write"
      ? (onlyReads ? ["read"] as const : ["read", "write"] as const)
      : [v.access];
    for (const permission of permissions) {
      needs.push({ setting: v.name, value, permission, target: place });
    }
  }
  if (launch.listen) {
    const { host, port, setting } = launch.listen;
    const address = `${host.includes(":") ? `[${host}]` : host}:${port}`;
    needs.push({
      setting,
      value: setting === "MCP_HTTP_HOST" ? host : String(port),
      permission: "net",
      target: address,
      listen: true,
    });
  }
  if (launch.toolsets.length && SOURCE_DIR) {
    needs.push({ value: "the server's modules, loaded on first use", permission: "read", target: SOURCE_DIR });
  }
  return needs;
}

/**
 * Throws a one-line ConfigError when a need is not granted, or when an explicitly set PDF_ROOT is not a
 * folder. Returns notes for the start-up log line (a default PDF folder that does not exist).
 */
export function preflight(config: Config, env: Env, launch: Launch, query: Query = querySync): string[] {
  const needs = [...settingNeeds(env, launch), ...defaultLogNeeds(config, env, launch)];
  const refused = needs.filter((n) => !n.soft && query(descriptor(n)) !== "granted");
  if (refused.length) throw new ConfigError(refusal(refused, needs, launch));
  // Granted by Deno is not yet writable by the system (a read-only disk, another user's folder).
  // Only a folder the operator chose stops the start; the default one is skipped with a warning if unusable.
  if (config.logsDir && env.LOGS_DIR?.trim()) assertLogsDirWritable(config.logsDir);
  return launch.toolsets.includes("pdf") ? checkPdfRoot(config, env) : [];
}

/** The default session-log folder of a server (stdio, LOGS_DIR unset): listed and written, but optional. */
function defaultLogNeeds(config: Config, env: Env, launch: Launch): Need[] {
  if (!config.logsDir || env.LOGS_DIR?.trim() || launch.set === "cli") return [];
  return (["read", "write"] as const).map((permission) => ({
    value: "the default session-log folder",
    permission,
    target: config.logsDir!,
    soft: true,
  }));
}

/** What the start-up log line reports: the folders in use and every upstream moved off its default. */
export function startupSummary(config: Config): Record<string, unknown> {
  const moved: Record<string, string> = {};
  for (const def of UPSTREAMS) {
    for (const [key, variable] of baseUrlVars(def)) {
      if (config.baseUrls[key] && config.baseUrls[key] !== variable.default) moved[variable.env] = config.baseUrls[key];
    }
  }
  return {
    pdf_root: config.toolsets.includes("pdf") ? config.pdf.root : undefined,
    logs_dir: config.logsDir,
    cache_dir: config.cacheDir,
    ...(Object.keys(moved).length ? { base_urls: moved } : {}),
  };
}

function checkPdfRoot(config: Config, env: Env): string[] {
  const root = config.pdf.root;
  let isFolder: boolean;
  try {
    isFolder = Deno.statSync(root).isDirectory;
    if (isFolder) Deno.readDirSync(root)[Symbol.iterator]().next();
  } catch (error) {
    if (error instanceof Deno.errors.PermissionDenied) {
      throw new ConfigError(`PDF_ROOT=${given(env, "PDF_ROOT")}: the system does not let this user read ${root}`);
    }
    if (!(error instanceof Deno.errors.NotFound)) throw error;
    isFolder = false;
  }
  if (isFolder) return [];
  if (env.PDF_ROOT) {
    throw new ConfigError(`PDF_ROOT=${env.PDF_ROOT} is not a folder (${root}); create it, or point PDF_ROOT at one`);
  }
  return [`the default PDF folder ${root} does not exist: the pdf tools will find no PDFs (set PDF_ROOT)`];
}

/** A setting's value as the operator gave it, else its default. */
function given(env: Env, name: string): string {
  return env[name] || ENV_VARS.find((v) => v.name === name)?.default || "";
}

function descriptor(need: Need): Deno.PermissionDescriptor {
  return need.permission === "net" ? { name: "net", host: need.target } : { name: need.permission, path: need.target };
}

/** `host:port` as Deno's net permission names it, the scheme's port made explicit. */
export function netTarget(url: string): string {
  const u = new URL(url);
  return u.port ? u.host : `${u.host}:${u.protocol === "https:" ? 443 : 80}`;
}

const VERB: Record<Permission, string> = { net: "net access to", read: "read access to", write: "write access to" };

function refusal(refused: Need[], all: Need[], launch: Launch): string {
  const first = refused[0];
  const others = [...new Set(refused.map((n) => n.setting).filter((s) => s && s !== first.setting))];
  const who = first.setting ? `${first.setting}=${first.value}` : first.value;
  const named = others.length > 3 ? [...others.slice(0, 2), `${others.length - 2} more settings`] : others;
  const also = named.length ? ` (${named.join(", ").replace(/, ([^,]+)$/, " and $1")} too)` : "";
  const loopbackOnly = refused.every((n) => n.permission === "net" && isLoopback(n.target));
  const head = `${who} needs ${VERB[first.permission]} ${first.target}, which this run does not have${also}; `;
  if (launch.flagsOnly) return head + `add to its command, before ${entryPath()}:${grantFlags(refused, all)}`;
  const fix = loopbackOnly && launch.mockTask ? launch.mockTask : command(launch, grantFlags(refused, all));
  return head + `start it with: ${fix}`;
}

/**
 * The flags that grant what was refused. A flag replaces the set's list of that kind, so it names every
 * target of that kind this configuration needs (plus the upstreams' fixed hosts, for redirects), not
 * only the refused ones.
 */
function grantFlags(refused: Need[], all: Need[]): string {
  const kinds = [...new Set(refused.map((n) => n.permission))];
  return kinds.map((kind) => {
    const needed = all.filter((n) => n.permission === kind);
    const targets = kind === "net"
      ? [
        ...needed.filter((n) => !n.listen).map(grantedHost),
        ...fixedHosts(all),
        ...needed.filter((n) => n.listen).map(grantedHost),
      ]
      : needed.map((n) => n.target);
    return ` --allow-${kind}=${[...new Set(targets)].join(",")}`;
  }).join("");
}

/** A base URL on its scheme's port is granted by host name, as the permission sets do; others by host:port. */
function grantedHost(need: Need): string {
  if (!/^https?:/.test(need.value)) return need.target;
  const u = new URL(need.value);
  return u.port ? u.host : u.hostname;
}

/** Hosts an upstream reaches besides its base URL (redirect targets), while its base URL is the default. */
function fixedHosts(all: Need[]): string[] {
  return UPSTREAMS.flatMap((def) => {
    const vars = baseUrlVars(def);
    const unmoved = vars.length > 0 &&
      vars.every(([, v]) => all.some((n) => n.setting === v.env && n.value === v.default));
    return unmoved ? def.hosts : [];
  });
}

function isLoopback(target: string): boolean {
  return /^(127\.\d+\.\d+\.\d+|localhost|\[::1\]):\d+$/.test(target);
}

function command(launch: Launch, flags: string): string {
  return launch.command.replace("{flags}", flags).replace("{entry}", entryPath());
}

/** The entry module as the operator would type it: relative to the working directory when inside it. */
function entryPath(): string {
  const main = new URL(Deno.mainModule);
  if (main.protocol !== "file:") return "mod.ts";
  return withinFolder(Deno.cwd(), fromFileUrl(main));
}

/**
 * A listen failure as one line naming the setting: the port is taken, the host is not this machine's,
 * or the system refuses the port. Anything else is returned unchanged.
 */
export function listenError(error: unknown, listen: NonNullable<Launch["listen"]>): unknown {
  const { host, port, setting } = listen;
  const address = `${host.includes(":") ? `[${host}]` : host}:${port}`;
  const who = `${setting}=${setting === "MCP_HTTP_HOST" ? host : port}`;
  if (error instanceof Deno.errors.AddrInUse) {
    return new ConfigError(
      `${who}: ${address} is already in use; stop the process listening there, or choose another port ` +
        "with MCP_HTTP_PORT",
    );
  }
  if (error instanceof Deno.errors.AddrNotAvailable) {
    return new ConfigError(`MCP_HTTP_HOST=${host} is not an address of this machine; use 127.0.0.1 or a local address`);
  }
  if (error instanceof Deno.errors.PermissionDenied) {
    return new ConfigError(`${who}: the system does not let this user listen on ${address}; choose a port above 1023`);
  }
  return error;
}
