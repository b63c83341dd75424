/**
 * Several server instances against one mock upstream, as an operator would run them for scale-out:
 * N processes of `deno run -P=http main.ts serve --transport http`, or one `deno serve --parallel` with N
 * workers, all configured with the same SCIENCE_MCP_KV. Used by the multi-instance test and the KV
 * benchmark. Not a `*_bench.ts` file, so bench/main.ts does not run it.
 */
import { mintToken } from "../scripts/token.ts";
import { Client } from "../src/sdk_client.ts";
import { childEnv, freePort, permissionNet, ROOT, waitForHealth } from "../tests/e2e/helpers.ts";
import { StreamableHTTPClientTransport } from "../tests/e2e/sdk_client.ts";

export interface InstancesOptions {
  /** Processes (`run`) or workers (`serve-parallel`). */
  count: number;
  mode: "run" | "serve-parallel";
  /** Base-URL variables of the mock, SCIENCE_MCP_KV and anything else the servers read. */
  env: Record<string, string>;
  /** `host:port` of the mock upstream (granted to the servers besides the permission set's hosts). */
  mockHost: string;
}

export interface Instances {
  /** One MCP client per endpoint (per process, or `count` clients on the one `deno serve` port). */
  clients: Client[];
  /** The tail of the servers' stderr (for failure messages). */
  stderr(): string;
  stop(): Promise<void>;
}

const SECRET = "kv-instances-secret-long-enough-for-hs256";

/** Starts the instances, waits until each answers /healthz, and connects a client to each. */
export async function startInstances(options: InstancesOptions): Promise<Instances> {
  const net = (await permissionNet("http")).filter((h) => !h.endsWith(":3010"));
  const children: Deno.ChildProcess[] = [];
  const bases: string[] = [];
  const common = { MCP_SESSION_MODE: "stateless", SCIENCE_MCP_TOOLSETS: "pubmed", ...options.env };
  const spawn = (args: string[], env: Record<string, string>) =>
    new Deno.Command(Deno.execPath(), {
      args,
      cwd: ROOT,
      env: childEnv(env),
      clearEnv: true,
      stdin: "null",
      stdout: "null",
      stderr: "piped",
    }).spawn();
  let log = "";
  const collect = async (child: Deno.ChildProcess) => {
    for await (const chunk of child.stderr.pipeThrough(new TextDecoderStream())) log = (log + chunk).slice(-8000);
  };
  let headers: Record<string, string> = {};
  if (options.mode === "run") {
    for (let i = 0; i < options.count; i++) {
      const port = freePort();
      const allow = `--allow-net=${[...net, options.mockHost, `127.0.0.1:${port}`].join(",")}`;
      children.push(spawn(["run", "-P=http", allow, "main.ts", "serve", "--transport", "http"], {
        MCP_LOG_LEVEL: "warning",
        ...common,
        MCP_TRANSPORT_TYPE: "http",
        MCP_HTTP_PORT: String(port),
        MCP_AUTH_MODE: "none",
      }));
      bases.push(`http://127.0.0.1:${port}`);
    }
  } else {
    const port = freePort();
    const allow = `--allow-net=${[...net, options.mockHost, `0.0.0.0:${port}`, `127.0.0.1:${port}`].join(",")}`;
    const args = ["serve", "--parallel", "-P=http", allow, "--host", "127.0.0.1", "--port", String(port), "serve.ts"];
    children.push(spawn(args, {
      MCP_LOG_LEVEL: "warning",
      ...common,
      MCP_AUTH_SECRET_KEY: SECRET,
      DENO_JOBS: String(options.count),
    }));
    for (let i = 0; i < options.count; i++) bases.push(`http://127.0.0.1:${port}`);
    headers = { authorization: `Bearer ${await mintToken(SECRET, { subject: "kv-instances" })}` };
  }
  const reading = children.map((child) => collect(child).catch(() => {}));
  const stop = async () => {
    for (const child of children) {
      try {
        child.kill("SIGTERM");
      } catch { /* already gone */ }
    }
    for (const child of children) await child.status;
    await Promise.all(reading);
  };
  try {
    const clients: Client[] = [];
    for (const base of bases) {
      await waitForHealth(base, 60_000);
      const client = new Client({ name: "kv-instances", version: "1.0.0" });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers } }));
      clients.push(client);
    }
    return {
      clients,
      stderr: () => log,
      async stop() {
        await Promise.all(clients.map((c) => c.close().catch(() => {})));
        await stop();
      },
    };
  } catch (error) {
    await stop();
    throw new Error(`${error instanceof Error ? error.message : error}\n${log}`);
  }
}

/** A fresh KV file under ./.cache (granted by every permission set) and a function that removes it. */
export function kvFile(): { path: string; remove(): Promise<void> } {
  const path = `./.cache/kv-${crypto.randomUUID()}.sqlite`;
  return {
    path,
    async remove() {
      for (const suffix of ["", "-shm", "-wal"]) await Deno.remove(`${ROOT}${path}${suffix}`).catch(() => {});
    },
  };
}
