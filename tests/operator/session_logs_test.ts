/**
 * Session log files under the shipped permission sets, as operators start the server: every set that runs
 * a server (stdio, stdio-open, http, cli) writes a non-empty file per session and keeps the folder to 100
 * files (pruning lists the folder, so the sets grant read on ./logs too). `LOGS_DIR=off` starts every entry
 * point; an HTTP server (`--transport http`, MCP_TRANSPORT_TYPE unset) logs only when LOGS_DIR is set.
 * Each test writes to its own folder under the project's ./logs, the folder the sets grant.
 */
import assert from "node:assert/strict";
import { Client } from "../../src/sdk_client.ts";
import { waitForHealth } from "../e2e/helpers.ts";
import { childEnv, freePort, ROOT, run, splitStderr, taskArgs } from "./helpers.ts";
import { permissionNet } from "../e2e/helpers.ts";

const LOG_NAME = /^\d{4}-\d{2}-\d{2}_\d{2}-\d{2}-\d{2}(?:-\d+)?(?:\.1)?\.log$/;

/** A fresh folder under ./logs holding `count` older session logs; LOGS_DIR as an operator writes it. */
async function logsFolder(count: number): Promise<{ setting: string; path: string }> {
  const name = `test-${crypto.randomUUID()}`;
  const path = `${ROOT}logs/${name}`;
  await Deno.mkdir(path, { recursive: true });
  const recent = Date.now() - 3600_000;
  for (let i = 0; i < count; i++) {
    const file = `${path}/${
      new Date(recent - i * 60_000).toISOString().slice(0, 19).replace("T", "_").replaceAll(":", "-")
    }.log`;
    await Deno.writeTextFile(file, "{}\n");
    const when = new Date(recent - i * 60_000);
    await Deno.utime(file, when, when);
  }
  return { setting: `./logs/${name}`, path };
}

function sessionFiles(path: string): { name: string; size: number }[] {
  return [...Deno.readDirSync(path)].filter((e) => LOG_NAME.test(e.name))
    .map((e) => ({ name: e.name, size: Deno.statSync(`${path}/${e.name}`).size }));
}

async function stdioSession(args: string[], env: Record<string, string>): Promise<string> {
  const { StdioClientTransport } = await import("../e2e/sdk_client.ts");
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args,
    cwd: ROOT,
    env: childEnv(env),
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Uint8Array) => (stderr += new TextDecoder().decode(chunk)));
  const client = new Client({ name: "logs", version: "1.0.0" });
  await client.connect(transport);
  try {
    const result = await client.callTool({ name: "list_pdfs", arguments: {} });
    assert.notEqual(result.isError, true);
  } finally {
    await client.close();
  }
  return stderr;
}

/** `deno task serve` on a free port (the set's net list with that port instead of 3010); one session. */
async function httpSession(env: Record<string, string>, extra: string[] = []): Promise<string> {
  const port = freePort();
  const net = (await permissionNet("http")).filter((h) => !h.endsWith(":3010"));
  const args = (await taskArgs("serve")).flatMap((a) =>
    a === "-P=http" ? [a, `--allow-net=${[...net, `127.0.0.1:${port}`].join(",")}`] : [a]
  );
  const child = new Deno.Command(Deno.execPath(), {
    args: [...args, ...extra],
    cwd: ROOT,
    env: childEnv({ MCP_AUTH_MODE: "none", MCP_HTTP_PORT: String(port), ...env }),
    clearEnv: true,
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  try {
    const base = `http://127.0.0.1:${port}`;
    await waitForHealth(base);
    const { StreamableHTTPClientTransport } = await import("../e2e/sdk_client.ts");
    const client = new Client({ name: "logs", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
    try {
      const result = await client.callTool({ name: "list_pdfs", arguments: {} });
      assert.notEqual(result.isError, true);
    } finally {
      await client.close();
    }
  } finally {
    child.kill("SIGTERM");
  }
  return new TextDecoder().decode((await child.output()).stderr);
}

function startLine(stderr: string): Record<string, unknown> {
  const line = splitStderr(stderr).logs.find((l) => String(l.msg).includes("starting"));
  assert.ok(line, stderr);
  return line;
}

const SETS: [string, () => Promise<string[]>][] = [
  ["stdio (deno task start)", () => taskArgs("start")],
  ["stdio-open (deno task start:open)", () => taskArgs("start:open")],
  [
    "cli (deno run -P=cli main.ts serve, as a compiled binary)",
    () => Promise.resolve(["run", "-q", "-P=cli", "main.ts", "serve"]),
  ],
];

for (const [name, args] of SETS) {
  Deno.test(`session logs under ${name}: a non-empty file per session, the folder kept to 100 files`, async () => {
    const folder = await logsFolder(105);
    try {
      const stderr = await stdioSession(await args(), { LOGS_DIR: folder.setting });
      assert.doesNotMatch(stderr, /session log off/, stderr);
      const files = sessionFiles(folder.path);
      assert.equal(files.length, 100, "pruned to 100 files");
      const fresh = files.filter((f) => f.size > 3);
      assert.equal(fresh.length, 1, JSON.stringify(files.filter((f) => f.size !== 3)));
      assert.deepEqual(files.filter((f) => f.size === 0), [], "no empty files");
    } finally {
      await Deno.remove(folder.path, { recursive: true });
    }
  });
}

Deno.test("session logs under http (deno task serve) with LOGS_DIR set: written and bounded", async () => {
  const folder = await logsFolder(105);
  try {
    const stderr = await httpSession({ LOGS_DIR: folder.setting });
    assert.doesNotMatch(stderr, /session log off/, stderr);
    const files = sessionFiles(folder.path);
    assert.equal(files.length, 100);
    assert.equal(files.filter((f) => f.size > 3).length, 1);
    assert.deepEqual(files.filter((f) => f.size === 0), []);
  } finally {
    await Deno.remove(folder.path, { recursive: true });
  }
});

Deno.test("an HTTP server started with --transport http logs no session without LOGS_DIR", async () => {
  const stderr = await httpSession({});
  assert.equal(startLine(stderr).logs_dir, undefined, "no session log folder");
  assert.equal(startLine(stderr).transport, "http");
});

Deno.test("LOGS_DIR=off starts every entry point: stdio, HTTP and the CLI", async () => {
  const stdio = await stdioSession(await taskArgs("start"), { LOGS_DIR: "off", MCP_LOG_LEVEL: "info" });
  assert.equal(startLine(stdio).logs_dir, undefined);
  const http = await httpSession({ LOGS_DIR: "off" });
  assert.equal(startLine(http).logs_dir, undefined);
  const cli = await run([...await taskArgs("cli"), "call", "list_pdfs"], { env: { LOGS_DIR: "off" } });
  assert.equal(cli.code, 0, cli.stderr);
  assert.match(cli.stdout, /dvt_prophylaxis_review/);
});
