/** Subprocess helpers for end-to-end tests: the repository root, free ports, `deno` runs, flag argv. */

export const ROOT = new URL("../../", import.meta.url).pathname;

/**
 * The paper library of child processes: a folder of this test process inside the clone's ./library (which
 * every shipped permission set may read and write), never ./library itself, whose papers a user saved.
 * Nothing creates it until a child saves a paper; tests that do remove it.
 */
export const CHILD_LIBRARY_DIR = `${ROOT}library/.test-${Deno.pid}`;

// What children saved goes with this test process (and ./library with it, when nothing else is in it).
globalThis.addEventListener("unload", () => {
  for (const [path, recursive] of [[CHILD_LIBRARY_DIR, true], [`${ROOT}library`, false]] as const) {
    try {
      Deno.removeSync(path, { recursive });
    } catch {
      // never made, or holds a user's papers
    }
  }
});

/**
 * Environment for a child process: the parent's, minus every variable the server reads, plus `env`; the
 * paper library is {@link CHILD_LIBRARY_DIR} unless `env` names one.
 */
export function childEnv(env: Record<string, string> = {}): Record<string, string> {
  const base = Deno.env.toObject();
  for (const key of Object.keys(base)) {
    if (
      /^(MCP_|NCBI_|PUBCHEM_|ARXIV_|AR5IV_|OPENALEX_|PDF_|SCIENCE_MCP_|LOGS_DIR|LIBRARY_DIR|CACHE_|UPSTREAM_)/.test(key)
    ) {
      delete base[key];
    }
  }
  return { ...base, NO_COLOR: "1", LIBRARY_DIR: CHILD_LIBRARY_DIR, ...env };
}

export function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `deno <args>` in the repository root and collects its output. */
export async function runDeno(args: string[], env: Record<string, string> = {}): Promise<RunResult> {
  const output = await new Deno.Command(Deno.execPath(), {
    args,
    cwd: ROOT,
    env: childEnv(env),
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decoder = new TextDecoder();
  return { code: output.code, stdout: decoder.decode(output.stdout), stderr: decoder.decode(output.stderr) };
}

/** An example as CLI argv: `--key value` pairs, lists repeated, objects as JSON, `true` as a bare flag. */
export function flagArgv(example: Record<string, unknown>): string[] {
  return Object.entries(example).flatMap(([key, value]) => {
    if (value === true) return [`--${key}`];
    if (value === false) return [`--${key}=false`];
    if (Array.isArray(value) && value.every((v) => typeof v !== "object")) {
      return value.flatMap((v) => [`--${key}`, String(v)]);
    }
    return [`--${key}`, typeof value === "object" ? JSON.stringify(value) : String(value)];
  });
}

/** The `net` list of a permission set in deno.json. */
export async function permissionNet(set: string): Promise<string[]> {
  const config = JSON.parse(await Deno.readTextFile(`${ROOT}deno.json`));
  return config.permissions[set].net as string[];
}

/** Polls GET /healthz until the server answers. */
export async function waitForHealth(base: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const response = await fetch(`${base}/healthz`);
      await response.body?.cancel();
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`server at ${base} did not come up`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
