/**
 * The HTTP server under test as a subprocess, started exactly as `deno task serve` starts it (`-P=http`,
 * read from deno.json) plus network grants for its own loopback port and the loopback mock upstream. Its
 * memory is read from /proc (Linux) so the load generator's own heap never pollutes the figure.
 */

const ROOT = new URL("../../", import.meta.url).pathname;

export interface ServerProcess {
  base: string;
  pid: number;
  /** Resident set size in bytes (NaN where /proc is not available). */
  rss(): number;
  stop(): Promise<void>;
}

export interface ServerOptions {
  /** Environment for the server (base URLs, MCP_SESSION_IDLE_TIMEOUT_MS, …). */
  env: Record<string, string>;
  /** Extra `host:port` grants (the mock upstream). */
  allowNet: string[];
}

export async function startServerProcess(options: ServerOptions): Promise<ServerProcess> {
  const port = freePort();
  const config = JSON.parse(await Deno.readTextFile(`${ROOT}deno.json`));
  const net = (config.permissions.http.net as string[]).filter((h) => !h.startsWith("127.0.0.1:"));
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-P=http",
      `--allow-net=${[...net, ...options.allowNet, `127.0.0.1:${port}`].join(",")}`,
      "main.ts",
      "serve",
    ],
    cwd: ROOT,
    clearEnv: true,
    env: {
      ...passThrough("PATH", "HOME", "DENO_DIR"),
      NO_COLOR: "1",
      MCP_TRANSPORT_TYPE: "http",
      MCP_HTTP_HOST: "127.0.0.1",
      MCP_HTTP_PORT: String(port),
      MCP_AUTH_MODE: "none",
      MCP_LOG_LEVEL: "error",
      ...options.env,
    },
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  let stderr = "";
  const drain = child.stderr.pipeTo(
    new WritableStream({ write: (chunk) => void (stderr = (stderr + new TextDecoder().decode(chunk)).slice(-8000)) }),
  ).catch(() => {});
  const base = `http://127.0.0.1:${port}`;
  try {
    await waitForHealth(base, child);
  } catch (error) {
    try {
      child.kill("SIGKILL");
    } catch { /* it already exited (e.g. refused to start) */ }
    await child.status;
    await drain;
    throw new Error(`${error}\n${stderr}`);
  }
  return {
    base,
    pid: child.pid,
    rss: () => readRss(child.pid),
    async stop() {
      try {
        child.kill("SIGTERM");
      } catch { /* already gone */ }
      const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
      await child.status;
      clearTimeout(timer);
      await drain;
    },
  };
}

/** Variables `deno` itself needs to find its cache, copied from this process when set. */
export function passThrough(...names: string[]): Record<string, string> {
  return Object.fromEntries(names.flatMap((n) => Deno.env.get(n) === undefined ? [] : [[n, Deno.env.get(n)!]]));
}

function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

async function waitForHealth(base: string, child: Deno.ChildProcess): Promise<void> {
  let exited = false;
  child.status.then(() => (exited = true));
  const deadline = performance.now() + 60_000;
  while (performance.now() < deadline && !exited) {
    try {
      const response = await fetch(`${base}/healthz`);
      await response.body?.cancel();
      if (response.ok) return;
    } catch { /* not listening yet */ }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(exited ? "the server exited during startup" : `the server at ${base} did not come up in 60 s`);
}

function readRss(pid: number): number {
  try {
    const status = Deno.readTextFileSync(`/proc/${pid}/status`);
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]);
    return kb * 1024;
  } catch {
    return NaN;
  }
}
