/**
 * The preflight on a scripted permission answer: which needs a configuration has (derived from ENV_VARS
 * and the upstream table, so new settings are covered), and the one line it stops with.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  type Config,
  ConfigError,
  type Env,
  ENV_VARS,
  loadConfig,
  mockBaseUrls,
  PROJECT_ROOT,
} from "../../src/config.ts";
import {
  checkEnvPermission,
  type Launch,
  netTarget,
  preflight,
  type Query,
  settingNeeds,
} from "../../src/preflight.ts";
import { baseUrlSettings, upstreamHosts } from "../../src/upstreams/mod.ts";

const STDIO: Launch = {
  set: "stdio",
  command: "deno run -P=stdio{flags} {entry} serve --transport stdio",
  mockTask: "deno task start:mock",
  toolsets: ["pubmed", "gene", "pubchem", "papers", "pdf"],
};
const HTTP: Launch = {
  set: "http",
  command: "deno run -P=http{flags} {entry} serve --transport http",
  listen: { host: "127.0.0.1", port: 3010, setting: "MCP_HTTP_PORT" },
  toolsets: STDIO.toolsets,
};

/**
 * What `-P=stdio` grants: the default hosts, the project's files folder and its modules, the paper library
 * (read and write); nothing else.
 */
function stdioSet(extra: Partial<Record<"net" | "read" | "write", string[]>> = {}): Query {
  const net = [...upstreamHosts(), ...(extra.net ?? [])];
  const read = [`${PROJECT_ROOT}/files`, `${PROJECT_ROOT}/library`, `${PROJECT_ROOT}/src`, ...(extra.read ?? [])];
  const write = [`${PROJECT_ROOT}/library`, ...(extra.write ?? [])];
  return (d) => {
    if (d.name === "env") return "granted";
    if (d.name === "net") {
      const host = d.host!.replace(/:\d+$/, "");
      return net.includes(d.host!) || net.includes(host) ? "granted" : "prompt";
    }
    const path = String((d as Deno.ReadPermissionDescriptor).path);
    const within = (dirs: string[]) => dirs.some((dir) => path === dir || path.startsWith(dir + "/"));
    if (d.name === "read") return within(read) ? "granted" : "prompt";
    if (d.name === "write") return within(write) ? "granted" : "prompt";
    return "prompt";
  };
}

function refusal(env: Env, launch: Launch, query: Query): string {
  const config: Config = loadConfig(env);
  try {
    preflight(config, env, launch, query);
  } catch (error) {
    assert.ok(error instanceof ConfigError, String(error));
    return error.message;
  }
  assert.fail("the preflight accepted it");
}

Deno.test("preflight: the defaults pass under what -P=stdio and -P=http grant", () => {
  assert.deepEqual(preflight(loadConfig({}), {}, STDIO, stdioSet()), []);
  assert.deepEqual(preflight(loadConfig({}), {}, HTTP, stdioSet({ net: ["127.0.0.1:3010"] })), []);
});

Deno.test("preflight: every base-URL variable of the upstream table is checked (none hand-listed)", async (t) => {
  for (const [, variable] of baseUrlSettings()) {
    await t.step(variable.env, () => {
      const env = { [variable.env]: "https://mirror.example.org/api" };
      const message = refusal(env, STDIO, stdioSet());
      assert.match(message, new RegExp(`^${variable.env}=https://mirror\\.example\\.org/api needs net access to`));
      assert.match(message, /mirror\.example\.org:443, which this run does not have; start it with: deno run -P=stdio/);
      assert.match(message, /--allow-net=[^ ]*mirror\.example\.org/);
      assert.doesNotMatch(message, /\n/);
    });
  }
});

Deno.test("preflight: the needs follow the `access` of ENV_VARS: every place-naming setting, nothing else", () => {
  const env = Object.fromEntries(
    ENV_VARS.filter((v) => v.access).map((v) => [v.name, v.access === "url" ? "https://x.example" : "/tmp/x"]),
  );
  const needs = settingNeeds(env, STDIO).filter((n) => n.setting);
  assert.deepEqual(
    [...new Set(needs.map((n) => n.setting))],
    ENV_VARS.filter((v) => v.access).map((v) => v.name),
  );
  assert.deepEqual(
    [...new Set(needs.map((n) => n.setting))].sort(),
    [
      ...baseUrlSettings().map(([, v]) => v.env),
      "LIBRARY_DIR",
      "LOGS_DIR",
      "MCP_AUTH_JWKS_URL",
      "PDF_ROOT",
      "SCIENCE_MCP_CACHE_DIR",
      "SCIENCE_MCP_KV",
    ].sort(),
  );
  assert.ok(!settingNeeds(env, { ...STDIO, toolsets: ["gene"] }).some((n) => n.setting === "PDF_ROOT"));
});

Deno.test("preflight: base URLs on the loopback mock point at `deno task start:mock`", () => {
  const env = mockBaseUrls("http://127.0.0.1:8787");
  const message = refusal(env, STDIO, stdioSet());
  const count = Object.keys(env).length - 3;
  assert.equal(
    message,
    "NCBI_EUTILS_BASE_URL=http://127.0.0.1:8787/ncbi needs net access to 127.0.0.1:8787, which this run does " +
      `not have (NCBI_IDCONV_BASE_URL, PUBCHEM_BASE_URL and ${count} more settings too); start it with: deno task start:mock`,
  );
  assert.deepEqual(preflight(loadConfig(env), env, STDIO, stdioSet({ net: ["127.0.0.1"] })), []);
});

Deno.test("preflight: a flag replaces the set's list, so the command grants every target of that kind", () => {
  const env = { OPENALEX_BASE_URL: "http://proxy.internal:8080/openalex" };
  const message = refusal(env, STDIO, stdioSet());
  const flag = message.match(/--allow-net=(\S+)/)![1].split(",");
  assert.ok(flag.includes("proxy.internal:8080"));
  const others = upstreamHosts().filter((host) => host !== "api.openalex.org");
  for (const host of others) assert.ok(flag.includes(host), `${host} stays granted`);
});

Deno.test("preflight: the HTTP listen address is a need named after the setting that chose it", () => {
  const launch = { ...HTTP, listen: { host: "127.0.0.1", port: 3999, setting: "MCP_HTTP_PORT" as const } };
  const message = refusal({ MCP_HTTP_PORT: "3999" }, launch, stdioSet({ net: ["127.0.0.1:3010"] }));
  assert.match(message, /^MCP_HTTP_PORT=3999 needs net access to 127\.0\.0\.1:3999, which this run does not have/);
  assert.match(message, /deno run -P=http --allow-net=\S*127\.0\.0\.1:3999\S* \S+ serve --transport http$/);
  assert.ok(settingNeeds({}, launch).some((n) => n.target === "127.0.0.1:3999"));
});

Deno.test("preflight: with several settings refused, the line names them and grants them all", () => {
  const outside = Deno.makeTempDirSync({ prefix: "preflight_" });
  try {
    const env = { NCBI_EUTILS_BASE_URL: "http://127.0.0.1:9/ncbi", PDF_ROOT: outside };
    const message = refusal(env, STDIO, stdioSet());
    assert.match(
      message,
      /^NCBI_EUTILS_BASE_URL=\S+ needs net access to 127\.0\.0\.1:9, .* \(PDF_ROOT too\); start it with: /,
    );
    assert.match(message, new RegExp(`--allow-net=127\\.0\\.0\\.1:9,\\S+ --allow-read=${outside},`));
  } finally {
    Deno.removeSync(outside, { recursive: true });
  }
});

Deno.test("preflight: PDF_ROOT, LOGS_DIR and the cache need read or write access to the resolved folder", () => {
  const outside = Deno.makeTempDirSync({ prefix: "preflight_" });
  try {
    const pdf = refusal({ PDF_ROOT: outside }, STDIO, stdioSet());
    assert.match(pdf, new RegExp(`^PDF_ROOT=${outside} needs read access to ${outside},`));
    // The shipped sets write the library only in ./library: another folder is refused, and the grant named.
    const library = refusal({ LIBRARY_DIR: outside }, STDIO, stdioSet());
    assert.match(library, new RegExp(`^LIBRARY_DIR=${outside} needs read access to ${outside},`));
    assert.match(library, new RegExp(`--allow-write=[^ ]*${outside}[, ]`));
    // Pruning lists the folder (100 files at most): read as well as write.
    const logs = refusal({ LOGS_DIR: join(outside, "logs") }, STDIO, stdioSet());
    assert.match(logs, new RegExp(`^LOGS_DIR=${outside}/logs needs read access to ${outside}/logs,`));
    assert.match(
      logs,
      new RegExp(
        `--allow-read=${outside}/logs,${PROJECT_ROOT}/files,${PROJECT_ROOT}/library,${PROJECT_ROOT}/src ` +
          `--allow-write=${outside}/logs,${PROJECT_ROOT}/library `,
      ),
    );
    // A flag replaces the set's list: the default session-log folder stays in it, so logs stay bounded.
    assert.match(
      pdf,
      new RegExp(`--allow-read=${outside},${PROJECT_ROOT}/library,${PROJECT_ROOT}/src,${PROJECT_ROOT}/logs `),
    );
    const cache = refusal({ SCIENCE_MCP_CACHE_DIR: "cache" }, STDIO, stdioSet());
    assert.match(cache, new RegExp(`^SCIENCE_MCP_CACHE_DIR=cache needs read access to ${PROJECT_ROOT}/cache,`));
    const env = { PDF_ROOT: outside };
    assert.deepEqual(preflight(loadConfig(env), env, STDIO, stdioSet({ read: [outside] })), []);
  } finally {
    Deno.removeSync(outside, { recursive: true });
  }
});

Deno.test("preflight: SCIENCE_MCP_KV names a file (read and write) or a KV Connect host; `default` names none", () => {
  const url = refusal({ SCIENCE_MCP_KV: "https://kv.internal.example:4512" }, HTTP, stdioSet());
  assert.match(
    url,
    /^SCIENCE_MCP_KV=https:\/\/kv\.internal\.example:4512 needs net access to kv\.internal\.example:4512,/,
  );
  // The flag replaces the set's hosts: the printed one keeps the upstreams and the listen address.
  const hosts = url.match(/--allow-net=(\S+)/)![1].split(",");
  for (const host of [...upstreamHosts(), "127.0.0.1:3010", "kv.internal.example:4512"]) {
    assert.ok(hosts.includes(host), host);
  }
  const file = refusal({ SCIENCE_MCP_KV: "/var/kv/budget.sqlite" }, STDIO, stdioSet());
  assert.match(file, /^SCIENCE_MCP_KV=\/var\/kv\/budget\.sqlite needs read access to \/var\/kv\/budget\.sqlite,/);
  assert.match(file, / --allow-write=\/var\/kv\/budget\.sqlite/);
  const env = { SCIENCE_MCP_KV: "DEFAULT" };
  assert.deepEqual(settingNeeds(env, STDIO).filter((n) => n.setting === "SCIENCE_MCP_KV"), []);
  assert.equal(loadConfig(env).kvLocation, "default");
  assert.equal(loadConfig({ SCIENCE_MCP_KV: "./.cache/b.sqlite" }).kvLocation, `${PROJECT_ROOT}/.cache/b.sqlite`);
});

Deno.test("preflight: LOGS_DIR=off (any case) needs no folder at all, under any launch", () => {
  for (const value of ["off", "OFF", " Off "]) {
    const env = { LOGS_DIR: value };
    const config = loadConfig(env);
    assert.equal(config.logsDir, undefined);
    assert.deepEqual(settingNeeds(env, STDIO).filter((n) => n.setting === "LOGS_DIR"), []);
    assert.deepEqual(preflight(config, env, STDIO, stdioSet()), []);
    assert.deepEqual(preflight(config, env, HTTP, stdioSet({ net: ["127.0.0.1:3010"] })), []);
  }
});

Deno.test("preflight: a PDF_ROOT that is not a folder stops the start; a missing default folder is a note", () => {
  const missing = join(Deno.makeTempDirSync({ prefix: "preflight_" }), "nowhere");
  const granted: Query = () => "granted";
  assert.throws(
    () => preflight(loadConfig({ PDF_ROOT: missing }), { PDF_ROOT: missing }, STDIO, granted),
    new RegExp(`^ConfigError: PDF_ROOT=${missing} is not a folder`),
  );
  const config = loadConfig({}, { root: missing });
  const notes = preflight(config, {}, STDIO, granted);
  assert.match(notes[0], new RegExp(`default PDF folder ${missing}/files does not exist`));
  assert.deepEqual(preflight(config, {}, { ...STDIO, toolsets: ["pubmed"] }, granted), [], "pdf toolset off");
});

Deno.test("preflight: a LOGS_DIR the system will not let us write is one line too, even when Deno grants it", () => {
  const file = Deno.makeTempFileSync({ prefix: "preflight_" });
  try {
    const env = { LOGS_DIR: `${file}/logs` };
    assert.throws(
      () => preflight(loadConfig(env), env, STDIO, () => "granted"),
      new RegExp(`^ConfigError: LOGS_DIR="${file}/logs" is not writable \\(.*\\); fix it, or set LOGS_DIR=off$`),
    );
  } finally {
    Deno.removeSync(file);
  }
});

Deno.test("preflight: without env permission for a setting, it stops before reading any", () => {
  const query: Query = (d) => d.name === "env" && d.variable === "PDF_ROOT" ? "prompt" : "granted";
  assert.throws(
    () => checkEnvPermission(STDIO, query),
    /^ConfigError: this run may not read the settings PDF_ROOT \(env permission\); start it with its permission set: deno run -P=stdio \S+ serve --transport stdio$/,
  );
  const asked: string[] = [];
  checkEnvPermission(STDIO, (d) => (asked.push((d as Deno.EnvPermissionDescriptor).variable!), "granted"));
  assert.deepEqual(asked, ENV_VARS.map((v) => v.name));
});

Deno.test("config: relative folders resolve against the project (as deno.json's permission paths do)", () => {
  const config = loadConfig({ PDF_ROOT: "papers", LOGS_DIR: "./logs", SCIENCE_MCP_CACHE_DIR: "/var/cache/x" });
  assert.equal(config.pdf.root, `${PROJECT_ROOT}/papers`);
  assert.equal(config.logsDir, `${PROJECT_ROOT}/logs`);
  assert.equal(config.cacheDir, "/var/cache/x");
  assert.equal(loadConfig({}).pdf.root, `${PROJECT_ROOT}/files`);
  assert.equal(loadConfig({}, { root: undefined }).pdf.root, "./files", "no project (compiled): the working directory");
  assert.ok(PROJECT_ROOT && Deno.statSync(`${PROJECT_ROOT}/deno.json`).isFile);
});

Deno.test("net targets name the port Deno checks", () => {
  assert.equal(netTarget("https://eutils.ncbi.nlm.nih.gov/entrez/eutils"), "eutils.ncbi.nlm.nih.gov:443");
  assert.equal(netTarget("http://127.0.0.1:8787/ncbi"), "127.0.0.1:8787");
  assert.equal(netTarget("http://[::1]:9/x"), "[::1]:9");
  assert.equal(netTarget("http://example.org"), "example.org:80");
});

Deno.test("a CLI call needs write access to the library only when it runs the tool that writes it", () => {
  const libraryNeeds = (tool: string) =>
    settingNeeds({}, { set: "cli", command: "deno run -P=cli main.ts call", toolsets: ["papers"], tool })
      .filter((n) => n.setting === "LIBRARY_DIR").map((n) => n.permission);
  assert.deepEqual(libraryNeeds("save_paper"), ["read", "write"]);
  assert.deepEqual(libraryNeeds("generate_publication_trend"), ["read"]);
});
