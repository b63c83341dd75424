/**
 * Configuration: the only module that reads the environment. Every variable the program reads is listed
 * in {@link ENV_VARS} (which also feeds the README table and the `--allow-env` list of each permission
 * set), parsed once, validated, and frozen. A bad value fails at startup, naming the variable.
 */
import { fromFileUrl, isAbsolutePath, resolvePath } from "./core/paths.ts";
import { z } from "./core/zod.ts";
import { ConfigError } from "./core/errors.ts";
import type { LogLevel } from "./core/log.ts";
import { DEFAULT_OUTPUT_MAX_CHARS, MIN_OUTPUT_MAX_CHARS } from "./core/output_limits.ts";
import { SERVER_NAME, VERSION } from "./core/version.ts";
import { baseUrlSettings, type UpstreamSettings } from "./upstreams/table.ts";

export { ConfigError, SERVER_NAME, VERSION };
/** The toolsets, in catalogue order; SCIENCE_MCP_TOOLSETS picks among them. */
export const TOOLSET_NAMES = ["pubmed", "gene", "pubchem", "papers", "pdf"] as const;
/** One of {@link TOOLSET_NAMES}. */
export type ToolsetName = typeof TOOLSET_NAMES[number];

/** What a setting's value makes the process touch: a URL it connects to, or a path it reads and/or writes. */
export type Access = "url" | "read" | "write" | "read-write";

/** One setting: its variable, what it does and its default (the README table is generated from these). */
export interface EnvVar {
  /** The environment variable. */
  name: string;
  /** One line for the README's settings table. */
  description: string;
  /** The value used when the variable is unset or empty. */
  default?: string;
  /**
   * Set on settings that name a place: the start-up preflight (src/preflight.ts) checks the permission for
   * it, and a relative path is resolved against the project (an http(s) URL in a path setting is a place
   * to connect to). A new setting that names a file, folder or URL declares it here to be covered.
   */
  access?: Access;
  /** The toolset(s) that use the setting: checked only when one of them is enabled (or called, in the CLI). */
  toolset?: ToolsetName | readonly ToolsetName[];
  /**
   * With `read-write` access: the only tools that write the place. A CLI call of any other tool needs read access
   * alone, so `--allow-write=chart.png` (which replaces the set's write list) still runs it.
   */
  writers?: readonly string[];
  /** A credential: never logged, marked secret in server.json and the README. */
  secret?: true;
  /** Values (any case) that name no place (`off`, `default`): they need no permission and are not paths. */
  keywords?: readonly string[];
}

/** One variable per base URL of the upstream table (src/upstreams/mod.ts), keyed as in `Config.baseUrls`. */
const BASE_URL_VARS: readonly [key: string, variable: EnvVar][] = baseUrlSettings().map(([key, v]) => [
  key,
  { name: v.env, description: v.description, default: v.default, access: "url" },
]);

/**
 * The base-URL variables that point every upstream at one server answering each under its mock prefix
 * (`http://127.0.0.1:8787` → `NCBI_EUTILS_BASE_URL=http://127.0.0.1:8787/ncbi`, …): what
 * `deno task mock` prints and what `serve --mock URL` applies.
 */
export function mockBaseUrls(url: string): Record<string, string> {
  const base = url.replace(/\/+$/, "");
  return Object.fromEntries(baseUrlSettings().map(([, v]) => [v.env, `${base}/${v.mockPrefix}`]));
}

/**
 * Not a setting: the process-wide mark a refused start leaves so that only one `deno serve --parallel`
 * worker prints its line (src/cli/main.ts). The sets that run serve.ts (`http`, `deploy`) grant it.
 */
export const START_REFUSED_MARK = "SCIENCE_MCP_START_REFUSED";

/** Every environment variable the server reads, in README order. */
export const ENV_VARS: readonly EnvVar[] = [
  { name: "MCP_TRANSPORT_TYPE", description: "`stdio` or `http`", default: "stdio" },
  {
    name: "MCP_HTTP_HOST",
    description: "HTTP bind address: an IP address or host name, no scheme or port",
    default: "127.0.0.1",
  },
  { name: "MCP_HTTP_PORT", description: "HTTP port", default: "3010" },
  {
    name: "MCP_AUTH_MODE",
    description: "`jwt` (HS256 secret), `oauth` (tokens of an external authorization server) or `none` (loopback only)",
    default: "jwt",
  },
  {
    name: "MCP_AUTH_SECRET_KEY",
    description: "HS256 secret for JWTs, at least 32 bytes (required with jwt)",
    secret: true,
  },
  { name: "MCP_AUTH_AUDIENCE", description: "Tokens must carry this `aud` (required with oauth: this server's URL)" },
  {
    name: "MCP_AUTH_ISSUER",
    description: "Tokens must carry this `iss` (required with oauth: the authorization server)",
  },
  {
    name: "MCP_AUTH_JWKS_URL",
    description: "oauth: the authorization server's JWKS (RS256/ES256 keys), cached and refreshed",
    access: "url",
  },
  {
    name: "MCP_AUTH_RESOURCE_URL",
    description: "oauth: public URL of /mcp, named in the protected-resource metadata (default: the audience)",
  },
  { name: "MCP_AUTH_SCOPES", description: "oauth: scopes every token must hold (space-separated)" },
  {
    name: "MCP_AUTH_MAX_TOKEN_LIFETIME_S",
    description: "Longest token lifetime accepted: exp − iat (exp − now without iat)",
    default: "604800",
  },
  {
    name: "MCP_ALLOWED_ORIGINS",
    description: "Comma-separated Origins (`https://host[:port]`) allowed to call /mcp (besides loopback)",
  },
  { name: "MCP_SESSION_MODE", description: "`stateful` or `stateless` (for deno serve / Deploy)", default: "stateful" },
  { name: "MCP_SESSION_IDLE_TIMEOUT_MS", description: "Idle time before a session is reaped", default: "1800000" },
  { name: "MCP_MAX_SESSIONS", description: "Maximum concurrent HTTP sessions", default: "1000" },
  {
    name: "MCP_MAX_SESSIONS_PER_SUBJECT",
    description: "HTTP sessions one token subject (`sub`) may hold; at most half of MCP_MAX_SESSIONS",
    default: "50",
  },
  { name: "MCP_MAX_BODY_BYTES", description: "Maximum HTTP request body", default: "1048576" },
  {
    name: "MCP_SHUTDOWN_GRACE_MS",
    description: "On SIGTERM/SIGINT, how long calls in flight may finish; then each gets a shutting-down error",
    default: "10000",
  },
  {
    name: "MCP_LOG_LEVEL",
    description: "debug, info, notice, warning, error (or critical, alert, emergency)",
    default: "info",
  },
  {
    name: "LOGS_DIR",
    description: "Session log folder, relative: to the project (stdio: ./logs if unset; `off`: none)",
    access: "read-write",
    keywords: ["off"],
  },
  {
    name: "SCIENCE_MCP_TOOLSETS",
    description: "Comma-separated toolsets to enable: pubmed,gene,pubchem,papers,pdf",
    default: "all",
  },
  {
    name: "SCIENCE_MCP_CACHE_DIR",
    description: "Disk cache for extracted PDF text, off when unset (relative: to the project)",
    access: "read-write",
  },
  {
    name: "SCIENCE_MCP_KV",
    description:
      "Deno KV file (relative: to the project), KV Connect URL or `default`: one rate budget for all instances using it",
    access: "read-write",
    keywords: ["default"],
  },
  {
    name: "DENO_KV_ACCESS_TOKEN",
    description: "Token for a KV Connect URL in SCIENCE_MCP_KV (read by Deno)",
    secret: true,
  },
  {
    name: "CACHE_MAX_BYTES",
    description: "In-memory response cache budget (one entry may use a quarter)",
    default: "134217728",
  },
  { name: "UPSTREAM_TIMEOUT_MS", description: "Timeout of one upstream request", default: "30000" },
  { name: "UPSTREAM_MAX_BYTES", description: "Largest upstream body accepted", default: "52428800" },
  {
    name: "TOOL_CALL_TIMEOUT_MS",
    description: "Deadline of one tool call, retries and waits included (0: none)",
    default: "60000",
  },
  {
    name: "SCIENCE_MCP_MAX_OUTPUT_CHARS",
    description: "Most characters of text in one tool result; longer results are cut with a notice",
    default: String(DEFAULT_OUTPUT_MAX_CHARS),
  },
  { name: "NCBI_API_KEY", description: "NCBI API key: 10 instead of 3 requests/s", secret: true },
  { name: "NCBI_ADMIN_EMAIL", description: "Contact e-mail sent to NCBI as `email`" },
  { name: "NCBI_TOOL_IDENTIFIER", description: "Sent to NCBI as `tool`", default: `science-mcp/${VERSION}` },
  { name: "NCBI_REQUEST_DELAY_MS", description: "Override the spacing between NCBI requests" },
  { name: "NCBI_MAX_RETRIES", description: "Retries of a failed NCBI request", default: "3" },
  ...BASE_URL_VARS.map(([, v]) => v),
  {
    name: "OPENALEX_API_KEY",
    description: "OpenAlex API key (required by OpenAlex since February 2026)",
    secret: true,
  },
  { name: "OPENALEX_MAILTO", description: "Contact e-mail sent to OpenAlex as `mailto`" },
  { name: "CROSSREF_MAILTO", description: "Contact e-mail sent to Crossref as `mailto`" },
  {
    name: "PDF_ROOT",
    description: "Folder searched by search_pdf (relative: to the project)",
    default: "./files",
    access: "read",
    toolset: "pdf",
  },
  {
    name: "LIBRARY_DIR",
    description: "Paper library save_paper writes to, searched with PDF_ROOT (relative: to the project)",
    default: "./library",
    access: "read-write",
    toolset: ["papers", "pdf"],
    writers: ["save_paper"],
  },
  { name: "PDF_MAX_PAGES", description: "Pages extracted from one PDF at most", default: "2000" },
  { name: "PDF_MAX_BYTES", description: "Largest PDF accepted", default: "104857600" },
  { name: "PDF_TIMEOUT_MS", description: "Time budget of one PDF extraction", default: "60000" },
  {
    name: "PDF_EXTRACTOR_IDLE_MS",
    description: "An idle PDF extractor process is ended after this long, giving its memory back",
    default: "60000",
  },
  {
    name: "PDF_INDEX_AHEAD",
    description: "PDFs indexed at start-up when SCIENCE_MCP_CACHE_DIR is set (0: each on first use)",
    default: "1000",
  },
];

/** An environment as the config reads it: variable name → value (tests pass their own). */
export type Env = Readonly<Record<string, string | undefined>>;

/**
 * One setting's check: its zod schema, built the first time a value other than the setting's default is
 * checked. Building and first running zod schemas for ~50 settings was a third of what a start evaluates
 * beyond the SDK; a default is known good (tests/core/config_test.ts parses every default with its schema),
 * so it is taken as it is, or as a number for a number setting, without building anything.
 */
export interface SettingCheck<S extends z.ZodType = z.ZodType> {
  /** The setting's zod schema (built once, on first use). */
  schema(): S;
  /** The value is a number: a default parses to `Number(default)`. */
  number?: true;
  /** Unset is allowed: it parses to undefined. */
  optional?: true;
}

function field<S extends z.ZodType>(
  make: () => S,
  flags: { number?: true; optional?: true } = {},
): SettingCheck<S> {
  let built: S | undefined;
  return { schema: () => built ??= make(), ...flags };
}

/** A setting that may be unset: `make()`'s schema, `.optional()`. */
function optional<S extends z.ZodType>(make: () => S, flags: { number?: true } = {}) {
  return field(() => make().optional(), { ...flags, optional: true });
}

/** `.int().min().max()` in one step: the same checks, without two intermediate schemas to build. */
const intSchema = (min: number, max: number) => z.coerce.number().check(z.int(), z.gte(min), z.lte(max));
const int = (min: number, max: number) => field(() => intSchema(min, max), { number: true });
const urlSchema = () => z.url({ protocol: /^https?$/ }).transform((u) => u.replace(/\/+$/, ""));
const optionalText = () => optional(() => z.string().trim().min(1));

/** Every setting of {@link ENV_VARS} but the base URLs, checked in this order (the first failure is reported). */
export const SETTING_CHECKS = {
  MCP_TRANSPORT_TYPE: field(() => z.enum(["stdio", "http"])),
  MCP_HTTP_HOST: field(() =>
    z.string().trim().regex(
      /^(?:[A-Za-z0-9.-]+|\[?[0-9A-Fa-f.]*:[0-9A-Fa-f.]*:[0-9A-Fa-f:.]*\]?)$/,
      "an IP address or host name only (no scheme, port or path; the port is MCP_HTTP_PORT)",
    )
  ),
  MCP_HTTP_PORT: int(0, 65535),
  MCP_AUTH_MODE: field(() => z.enum(["jwt", "oauth", "none"])),
  MCP_AUTH_SECRET_KEY: optional(() => z.string()),
  MCP_AUTH_AUDIENCE: optionalText(),
  MCP_AUTH_ISSUER: optionalText(),
  MCP_AUTH_JWKS_URL: optional(urlSchema),
  MCP_AUTH_RESOURCE_URL: optional(urlSchema),
  MCP_AUTH_SCOPES: optionalText(),
  MCP_AUTH_MAX_TOKEN_LIFETIME_S: int(60, 366 * 86400),
  MCP_ALLOWED_ORIGINS: optional(() =>
    z.string().refine(
      (list) => splitList(list).every(isOrigin),
      "each entry an origin: http(s)://host[:port], without a path (e.g. https://mcp.example.org)",
    )
  ),
  MCP_SESSION_MODE: field(() => z.enum(["stateful", "stateless"])),
  MCP_SESSION_IDLE_TIMEOUT_MS: int(1000, 7 * 24 * 3600_000),
  MCP_MAX_SESSIONS: int(1, 100_000),
  MCP_MAX_SESSIONS_PER_SUBJECT: int(1, 100_000),
  MCP_MAX_BODY_BYTES: int(1024, 100 * 1024 * 1024),
  MCP_SHUTDOWN_GRACE_MS: int(0, 600_000),
  MCP_LOG_LEVEL: field(() => z.enum(["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"])),
  LOGS_DIR: optionalText(),
  SCIENCE_MCP_TOOLSETS: field(() => z.string()),
  SCIENCE_MCP_CACHE_DIR: optionalText(),
  SCIENCE_MCP_KV: optional(() =>
    z.string().trim().min(1).refine(
      (v) => !/^[a-z][a-z0-9+.-]*:\/\//i.test(v) || /^https?:\/\/[^/]/i.test(v),
      "a file path, or an http(s) KV Connect URL",
    )
  ),
  DENO_KV_ACCESS_TOKEN: optionalText(),
  CACHE_MAX_BYTES: int(0, 16 * 1024 ** 3),
  UPSTREAM_TIMEOUT_MS: int(100, 600_000),
  UPSTREAM_MAX_BYTES: int(1024, 1024 ** 3),
  TOOL_CALL_TIMEOUT_MS: field(
    () => intSchema(0, 3600_000).refine((ms) => ms === 0 || ms >= 1000, "0 (no deadline) or at least 1000"),
    { number: true },
  ),
  SCIENCE_MCP_MAX_OUTPUT_CHARS: int(MIN_OUTPUT_MAX_CHARS, 10_000_000),
  NCBI_API_KEY: optionalText(),
  NCBI_ADMIN_EMAIL: optional(() => z.email()),
  NCBI_TOOL_IDENTIFIER: field(() => z.string().regex(/^[\w./@-]{1,64}$/, "letters, digits and ._/@- only")),
  NCBI_REQUEST_DELAY_MS: optional(() => intSchema(0, 60_000), { number: true }),
  NCBI_MAX_RETRIES: int(0, 10),
  OPENALEX_API_KEY: optionalText(),
  OPENALEX_MAILTO: optional(() => z.email()),
  CROSSREF_MAILTO: optional(() => z.email()),
  PDF_ROOT: field(() => z.string().min(1)),
  LIBRARY_DIR: field(() => z.string().min(1)),
  PDF_MAX_PAGES: int(1, 100_000),
  PDF_MAX_BYTES: int(1, 4 * 1024 ** 3),
  PDF_TIMEOUT_MS: int(100, 3600_000),
  PDF_EXTRACTOR_IDLE_MS: int(1000, 3600_000),
  PDF_INDEX_AHEAD: int(0, 100_000),
};

/** Every base-URL variable's check. */
export const BASE_URL_CHECK = field(urlSchema);

type Settings = {
  [K in keyof typeof SETTING_CHECKS]: typeof SETTING_CHECKS[K] extends SettingCheck<infer S> ? z.output<S> : never;
};

/** The whole configuration of one runtime: every setting of {@link ENV_VARS}, parsed, validated and frozen. */
export interface Config extends UpstreamSettings {
  /** MCP_TRANSPORT_TYPE. */
  transport: "stdio" | "http";
  /** The HTTP transport: bind address, authentication, origins, sessions, body limit. */
  http: {
    host: string;
    port: number;
    authMode: "jwt" | "oauth" | "none";
    authSecret?: string;
    /** Required `aud` of tokens, when set. */
    authAudience?: string;
    /** Required `iss` of tokens, when set. */
    authIssuer?: string;
    /** oauth: the external authorization server's JWKS. */
    jwksUrl?: string;
    /** oauth: the protected resource's identifier (RFC 9728 `resource`), when it is not the audience. */
    resourceUrl?: string;
    /** oauth: scopes a token must hold. */
    requiredScopes: string[];
    maxTokenLifetimeS: number;
    allowedOrigins: string[];
    sessionMode: "stateful" | "stateless";
    sessionIdleMs: number;
    maxSessions: number;
    /** Sessions one token subject may hold at once (jwt mode), so one token cannot fill MCP_MAX_SESSIONS. */
    maxSessionsPerSubject: number;
    maxBodyBytes: number;
  };
  /** MCP_LOG_LEVEL. */
  logLevel: LogLevel;
  /** How long calls in flight may run on after SIGTERM/SIGINT (MCP_SHUTDOWN_GRACE_MS), both transports. */
  shutdownGraceMs: number;
  /** Session log folder: LOGS_DIR, or `<project>/logs` for stdio when unset; undefined when off. */
  logsDir?: string;
  /** SCIENCE_MCP_TOOLSETS: the enabled toolsets. */
  toolsets: ToolsetName[];
  /** SCIENCE_MCP_CACHE_DIR, resolved: the disk cache of extracted PDF text. */
  cacheDir?: string;
  /** CACHE_MAX_BYTES: the in-memory response cache budget. */
  cacheMaxBytes: number;
  /** UPSTREAM_TIMEOUT_MS: one upstream request's timeout. */
  upstreamTimeoutMs: number;
  /** UPSTREAM_MAX_BYTES: the largest upstream body accepted. */
  upstreamMaxBytes: number;
  /** Deadline of one tool call (TOOL_CALL_TIMEOUT_MS), retries and waits included; 0 = none. */
  toolCallTimeoutMs: number;
  /** Most characters of text one tool result may hold (SCIENCE_MCP_MAX_OUTPUT_CHARS). */
  outputMaxChars: number;
  /** Base URL per upstream name (and per extra key such as `ar5iv`), from the upstream table. */
  baseUrls: Readonly<Record<string, string>>;
  /** PDF_ROOT (resolved), PDF_MAX_PAGES, PDF_MAX_BYTES, PDF_TIMEOUT_MS, PDF_EXTRACTOR_IDLE_MS, PDF_INDEX_AHEAD. */
  pdf: {
    root: string;
    /** LIBRARY_DIR (resolved): the paper library save_paper writes and the pdf tools read beside root. */
    library: string;
    maxPages: number;
    maxBytes: number;
    timeoutMs: number;
    /** Idle time after which an extractor process is ended (its memory returned). */
    extractorIdleMs: number;
    /** PDFs indexed ahead in the background (only with a disk cache); 0 = none. */
    indexAhead: number;
  };
}

/**
 * The project folder (where deno.json lives) when running from source; undefined in a compiled binary or
 * a bundle. The permission sets of deno.json name their paths relative to that folder, so relative
 * folder settings (PDF_ROOT, LOGS_DIR, SCIENCE_MCP_CACHE_DIR) resolve against it too: the server serves
 * the same folder whatever directory it was started from.
 */
export const PROJECT_ROOT: string | undefined = sourceProjectRoot();

function sourceProjectRoot(): string | undefined {
  const self = new URL(import.meta.url);
  if (self.protocol !== "file:" || Deno.build.standalone || !self.pathname.endsWith("/src/config.ts")) {
    return undefined;
  }
  return fromFileUrl(new URL("../", self)).replace(/[/\\]+$/, "");
}

/** A folder setting as the server uses it: absolute, or relative to `root` (the working directory without one). */
export function resolveFolder(path: string, root: string | undefined): string {
  return root === undefined || isAbsolutePath(path) ? path : resolvePath(root, path);
}

/**
 * Where session logs go: LOGS_DIR when set (`off` turns them off); unset, a local stdio server logs to the
 * project's `./logs` (one user, their own queries) while HTTP servers log only when told to.
 */
function sessionLogsDir(
  given: string | undefined,
  resolved: string | undefined,
  transport: "stdio" | "http",
  root: string | undefined,
): string | undefined {
  if (isKeyword(LOGS_DIR_VAR, given)) return undefined;
  if (resolved) return resolved;
  return transport === "stdio" ? resolveFolder("logs", root) : undefined;
}

const LOGS_DIR_VAR = ENV_VARS.find((v) => v.name === "LOGS_DIR")!;

/** Whether `value` is one of the setting's keywords (`LOGS_DIR=off`, `SCIENCE_MCP_KV=default`): no place. */
export function isKeyword(v: EnvVar, value: string | undefined): boolean {
  return value !== undefined && (v.keywords ?? []).includes(value.trim().toLowerCase());
}

/**
 * A setting's value as the program uses it: the environment's (empty counts as unset), else the default;
 * the path of a path setting resolved against `root`.
 */
export function settingValue(v: EnvVar, env: Env, root: string | undefined): string | undefined {
  const value = env[v.name] === undefined || env[v.name] === "" ? v.default : env[v.name];
  if (isKeyword(v, value)) return value!.trim().toLowerCase();
  const isPath = v.access && v.access !== "url" && value?.trim() && !/^[a-z][a-z0-9+.-]*:\/\//i.test(value);
  return isPath ? resolveFolder(value!, root) : value;
}

/** Options of {@link loadConfig}. */
export interface LoadOptions {
  /** Folder that relative folder settings resolve against; default {@link PROJECT_ROOT}. */
  root?: string;
}

/** Parses an environment (a plain record: tests pass their own) into a frozen Config. */
export function loadConfig(env: Env, options: LoadOptions = {}): Config {
  const root = "root" in options ? options.root : PROJECT_ROOT;
  const raw: Record<string, string | undefined> = {};
  for (const v of ENV_VARS) raw[v.name] = settingValue(v, env, root);
  const e = {} as Record<string, unknown>;
  for (const [name, check] of Object.entries(SETTING_CHECKS) as [string, SettingCheck][]) {
    e[name] = checkSetting(name, check, raw, root);
  }
  const urls: Record<string, string> = {};
  for (const [, v] of BASE_URL_VARS) urls[v.name] = checkSetting(v.name, BASE_URL_CHECK, raw, root);
  return configOf(e as Settings, urls, env, raw, root);
}

const VAR_BY_NAME = new Map(ENV_VARS.map((v) => [v.name, v]));

/**
 * One setting's value, checked: its default (or unset, where allowed) as it is, anything else through its
 * schema. Parsed once per process: zod's compiled fast path would cost more to build than it saves.
 */
export function checkSetting<S extends z.ZodType>(
  name: string,
  check: SettingCheck<S>,
  raw: Readonly<Record<string, string | undefined>>,
  root: string | undefined,
): z.output<S> {
  const value = raw[name];
  const v = VAR_BY_NAME.get(name);
  if (value === undefined ? check.optional : v !== undefined && value === settingValue(v, {}, root)) {
    return (value === undefined ? undefined : check.number ? Number(value) : value) as z.output<S>;
  }
  const parsed = check.schema().safeParse(value, { jitless: true });
  if (!parsed.success) {
    throw new ConfigError(
      `Invalid environment variable ${name}=${JSON.stringify(value)}: ${parsed.error.issues[0].message}`,
    );
  }
  return parsed.data as z.output<S>;
}

/** The Config of checked settings (plus the cross-setting rule on sessions per subject). */
function configOf(
  e: Settings,
  urls: Record<string, string>,
  env: Env,
  raw: Readonly<Record<string, string | undefined>>,
  root: string | undefined,
): Config {
  if (env.MCP_MAX_SESSIONS_PER_SUBJECT && e.MCP_MAX_SESSIONS_PER_SUBJECT > Math.max(1, e.MCP_MAX_SESSIONS / 2)) {
    throw new ConfigError(
      `Invalid environment variable MCP_MAX_SESSIONS_PER_SUBJECT=${
        JSON.stringify(raw.MCP_MAX_SESSIONS_PER_SUBJECT)
      }: ` +
        `at most half of MCP_MAX_SESSIONS (${e.MCP_MAX_SESSIONS}), i.e. ${
          Math.max(1, Math.floor(e.MCP_MAX_SESSIONS / 2))
        }`,
    );
  }
  const config: Config = {
    transport: e.MCP_TRANSPORT_TYPE,
    http: {
      host: e.MCP_HTTP_HOST,
      port: e.MCP_HTTP_PORT,
      authMode: e.MCP_AUTH_MODE,
      authSecret: e.MCP_AUTH_SECRET_KEY,
      authAudience: e.MCP_AUTH_AUDIENCE,
      authIssuer: e.MCP_AUTH_ISSUER,
      jwksUrl: e.MCP_AUTH_JWKS_URL,
      resourceUrl: e.MCP_AUTH_RESOURCE_URL,
      requiredScopes: (e.MCP_AUTH_SCOPES ?? "").split(/[\s,]+/).filter(Boolean),
      maxTokenLifetimeS: e.MCP_AUTH_MAX_TOKEN_LIFETIME_S,
      allowedOrigins: splitList(e.MCP_ALLOWED_ORIGINS),
      sessionMode: e.MCP_SESSION_MODE,
      sessionIdleMs: e.MCP_SESSION_IDLE_TIMEOUT_MS,
      maxSessions: e.MCP_MAX_SESSIONS,
      maxSessionsPerSubject: e.MCP_MAX_SESSIONS_PER_SUBJECT,
      maxBodyBytes: e.MCP_MAX_BODY_BYTES,
    },
    logLevel: e.MCP_LOG_LEVEL,
    shutdownGraceMs: e.MCP_SHUTDOWN_GRACE_MS,
    logsDir: sessionLogsDir(env.LOGS_DIR, e.LOGS_DIR, e.MCP_TRANSPORT_TYPE, root),
    toolsets: parseToolsets(e.SCIENCE_MCP_TOOLSETS),
    cacheDir: e.SCIENCE_MCP_CACHE_DIR,
    kvLocation: e.SCIENCE_MCP_KV,
    cacheMaxBytes: e.CACHE_MAX_BYTES,
    upstreamTimeoutMs: e.UPSTREAM_TIMEOUT_MS,
    upstreamMaxBytes: e.UPSTREAM_MAX_BYTES,
    toolCallTimeoutMs: e.TOOL_CALL_TIMEOUT_MS,
    outputMaxChars: e.SCIENCE_MCP_MAX_OUTPUT_CHARS,
    ncbi: {
      apiKey: e.NCBI_API_KEY,
      email: e.NCBI_ADMIN_EMAIL,
      tool: e.NCBI_TOOL_IDENTIFIER,
      requestDelayMs: e.NCBI_REQUEST_DELAY_MS,
      maxRetries: e.NCBI_MAX_RETRIES,
    },
    openalex: { apiKey: e.OPENALEX_API_KEY, mailto: e.OPENALEX_MAILTO },
    crossref: { mailto: e.CROSSREF_MAILTO },
    baseUrls: Object.fromEntries(BASE_URL_VARS.map(([key, v]) => [key, urls[v.name]])),
    pdf: {
      root: e.PDF_ROOT,
      library: e.LIBRARY_DIR,
      maxPages: e.PDF_MAX_PAGES,
      maxBytes: e.PDF_MAX_BYTES,
      timeoutMs: e.PDF_TIMEOUT_MS,
      extractorIdleMs: e.PDF_EXTRACTOR_IDLE_MS,
      indexAhead: e.PDF_INDEX_AHEAD,
    },
  };
  return deepFreeze(config);
}

/**
 * Reads exactly the variables in ENV_VARS, one by one: `Deno.env.toObject()` would need permission to
 * read every variable, and the permission sets grant only these.
 */
export function readEnv(): Env {
  const env: Record<string, string | undefined> = {};
  for (const v of ENV_VARS) env[v.name] = Deno.env.get(v.name);
  return env;
}

/** `https://host[:port]` exactly: what a browser sends as Origin (a path or a bare host would never match). */
function isOrigin(value: string): boolean {
  try {
    const url = new URL(value);
    return /^https?:$/.test(url.protocol) && url.pathname === "/" && !url.search && !url.hash && !url.username;
  } catch {
    return false;
  }
}

function splitList(value: string | undefined): string[] {
  return (value ?? "").split(",").map((s) => s.trim()).filter(Boolean);
}

function parseToolsets(value: string): ToolsetName[] {
  if (value.trim() === "all") return [...TOOLSET_NAMES];
  const names = splitList(value);
  for (const n of names) {
    if (!(TOOLSET_NAMES as readonly string[]).includes(n)) {
      throw new ConfigError(
        `Invalid environment variable SCIENCE_MCP_TOOLSETS: unknown toolset '${n}' (known: ${
          TOOLSET_NAMES.join(", ")
        })`,
      );
    }
  }
  if (names.length === 0) throw new ConfigError("Invalid environment variable SCIENCE_MCP_TOOLSETS: empty");
  return names as ToolsetName[];
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object") {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}
