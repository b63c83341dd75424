/**
 * The real entry points under the documented permission sets, started as an operator starts them: a
 * setting the set does not cover stops the server at start with exactly one line (no stack trace) naming
 * the setting, the permission and a command; that command then works. Starting from another directory
 * serves the project's folders.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { START_REFUSED_MARK } from "../../src/config.ts";
import { Client } from "../../src/sdk_client.ts";
import { upstreamHosts } from "../../src/upstreams/mod.ts";
import { waitForHealth } from "../e2e/helpers.ts";
import { childEnv, freePort, ROOT, run, splitStderr, suggestedCommand, taskArgs } from "./helpers.ts";

/** The single line an operator reads; fails on stack traces and on any extra line. */
function oneLine(stderr: string): string {
  const { other } = splitStderr(stderr);
  assert.equal(other.length, 1, `one line expected, got:\n${stderr}`);
  assert.doesNotMatch(stderr, /^\s+at /m, "no stack trace");
  assert.match(other[0], /^error: /);
  return other[0];
}

async function outsidePdfRoot(): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "operator_pdfs_" });
  await Deno.copyFile(`${ROOT}files/dvt_prophylaxis_review.pdf`, join(dir, "outside_paper.pdf"));
  return dir;
}

async function stdioClient(args: string[], env: Record<string, string>, cwd = ROOT) {
  const { StdioClientTransport } = await import("../e2e/sdk_client.ts");
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args,
    cwd,
    env: childEnv(env),
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Uint8Array) => (stderr += new TextDecoder().decode(chunk)));
  const client = new Client({ name: "operator", version: "1.0.0" });
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

async function pdfNames(client: Client): Promise<string[]> {
  const result = await client.callTool({ name: "list_pdfs", arguments: {} });
  return (result.structuredContent as { pdfs: { name: string }[] }).pdfs.map((p) => p.name);
}

Deno.test("deno task serve with another MCP_HTTP_PORT: one line naming it; the command it gives serves", async () => {
  const port = freePort();
  const env = { MCP_AUTH_MODE: "none", MCP_HTTP_PORT: String(port) };
  const refused = await run(await taskArgs("serve"), { env });
  assert.equal(refused.code, 1);
  const line = oneLine(refused.stderr);
  assert.match(line, new RegExp(`^error: MCP_HTTP_PORT=${port} needs net access to 127\\.0\\.0\\.1:${port},`));
  const child = new Deno.Command(Deno.execPath(), {
    args: suggestedCommand(line),
    cwd: ROOT,
    env: childEnv(env),
    clearEnv: true,
    stdin: "null",
    stdout: "null",
    stderr: "null",
  }).spawn();
  try {
    await waitForHealth(`http://127.0.0.1:${port}`);
  } finally {
    child.kill("SIGTERM");
    await child.status;
  }
});

Deno.test("serve --port N outside the set: the printed command keeps -q and --port, and serves there", async () => {
  const port = freePort();
  const env = { MCP_AUTH_MODE: "none" };
  const refused = await run([...await taskArgs("serve"), "--port", String(port)], { env });
  assert.equal(refused.code, 1);
  const line = oneLine(refused.stderr);
  assert.match(line, new RegExp(`^error: --port=${port} needs net access to 127\\.0\\.0\\.1:${port},`));
  const args = suggestedCommand(line);
  assert.deepEqual([args[0], args[1], args[2]], ["run", "-q", "-P=http"]);
  assert.deepEqual(args.slice(-5), ["serve", "--transport", "http", "--port", String(port)]);
  const child = new Deno.Command(Deno.execPath(), {
    args,
    cwd: ROOT,
    env: childEnv(env),
    clearEnv: true,
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  try {
    await waitForHealth(`http://127.0.0.1:${port}`);
  } finally {
    child.kill("SIGTERM");
    const stderr = new TextDecoder().decode((await child.output()).stderr);
    assert.doesNotMatch(stderr, /Warning Permissions/, "-q hides Deno's experimental-permissions warning");
  }
});

Deno.test("deno serve --parallel with a setting outside its set: one worker's line names the flags to add, which serve", async () => {
  const root = await outsidePdfRoot();
  const port = freePort();
  const env = { PDF_ROOT: root, MCP_AUTH_SECRET_KEY: "x".repeat(40), MCP_SESSION_MODE: "stateless" };
  const head = ["serve", "--parallel", "-q", "-P=http", "--host", "127.0.0.1", "--port", String(port)];
  try {
    // A refused start's mark inherited from another process must not silence this one.
    const inherited = { [START_REFUSED_MARK]: "1:inherited" };
    const out = await run([...head, "serve.ts"], { env: { ...env, ...inherited, DENO_JOBS: "2" } });
    assert.equal(out.code, 1);
    // Deno prefixes each worker's lines with its name under --parallel.
    const line = oneLine(out.stderr.replace(/^\[serve-worker-\d+ *\] /gm, ""));
    const flags = line.match(/; add to its command, before serve\.ts: (.+)$/)?.[1];
    assert.ok(flags, line);
    const child = new Deno.Command(Deno.execPath(), {
      args: [...head, ...flags.split(" "), "serve.ts"],
      cwd: ROOT,
      env: childEnv({ ...env, DENO_JOBS: "2" }),
      clearEnv: true,
      stdin: "null",
      stdout: "null",
      stderr: "null",
    }).spawn();
    try {
      await waitForHealth(`http://127.0.0.1:${port}`);
    } finally {
      // `deno serve --parallel` drains open connections on SIGTERM (the test's own keep-alive among them).
      child.kill("SIGKILL");
      await child.status;
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("PDF_ROOT outside ./files under -P=stdio: one line naming it; the command it gives serves that folder", async () => {
  const root = await outsidePdfRoot();
  try {
    const refused = await run(await taskArgs("start"), { env: { PDF_ROOT: root } });
    assert.equal(refused.code, 1);
    const line = oneLine(refused.stderr);
    assert.match(line, new RegExp(`^error: PDF_ROOT=${root} needs read access to ${root},`));
    const { client } = await stdioClient(suggestedCommand(line), { PDF_ROOT: root });
    try {
      assert.deepEqual(await pdfNames(client), ["outside_paper"]);
    } finally {
      await client.close();
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("a base-URL override under deno task start's set: one line naming the variable and start:mock", async () => {
  const url = `http://127.0.0.1:${freePort()}/ncbi`;
  const refused = await run(await taskArgs("start"), { env: { NCBI_EUTILS_BASE_URL: url } });
  assert.equal(refused.code, 1);
  assert.equal(
    oneLine(refused.stderr),
    `error: NCBI_EUTILS_BASE_URL=${url} needs net access to ${new URL(url).host}, which this run does not have; ` +
      "start it with: deno task start:mock",
  );
  const proxy = await run(await taskArgs("start"), { env: { PUBCHEM_BASE_URL: "https://pubchem-proxy.example.org" } });
  assert.match(
    oneLine(proxy.stderr),
    /^error: PUBCHEM_BASE_URL=\S+ needs net access to pubchem-proxy\.example\.org:443/,
  );
  assert.match(proxy.stderr, /start it with: deno run -q -P=stdio --allow-net=\S*pubchem-proxy\.example\.org\S* /);
});

Deno.test("a port already in use: one line naming MCP_HTTP_PORT, no stack trace", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  try {
    const net = [...upstreamHosts(), `127.0.0.1:${port}`].join(",");
    const taken = await run(["run", "-P=http", `--allow-net=${net}`, "main.ts", "serve", "--transport", "http"], {
      env: { MCP_AUTH_MODE: "none", MCP_HTTP_PORT: String(port) },
    });
    assert.equal(taken.code, 1);
    assert.match(
      oneLine(taken.stderr),
      new RegExp(`^error: MCP_HTTP_PORT=${port}: 127\\.0\\.0\\.1:${port} is already in use`),
    );
  } finally {
    listener.close();
  }
});

Deno.test("started from another directory, the server serves the project's PDF folder and says so", async () => {
  const elsewhere = await Deno.makeTempDir({ prefix: "operator_cwd_" });
  try {
    const args = ["run", "-P=stdio", "--config", `${ROOT}deno.json`, `${ROOT}main.ts`, "serve"];
    const { client, stderr } = await stdioClient(args, { MCP_LOG_LEVEL: "info" }, elsewhere);
    try {
      assert.deepEqual(await pdfNames(client), ["dvt_prophylaxis_review"]);
      const start = splitStderr(stderr()).logs.find((l) => String(l.msg).includes("starting"));
      assert.equal(start?.pdf_root, `${ROOT}files`);
    } finally {
      await client.close();
    }
    const cli = await run(["run", "-P=cli", `${ROOT}main.ts`, "call", "list_pdfs"], { cwd: elsewhere });
    assert.equal(cli.code, 0, cli.stderr);
    assert.match(cli.stdout, /dvt_prophylaxis_review/);
  } finally {
    await Deno.remove(elsewhere, { recursive: true });
  }
});

Deno.test("deno serve serve.ts with a setting outside its set: one line, exit 1", async () => {
  const root = await outsidePdfRoot();
  try {
    const out = await run(["serve", "-P=http", "--port", String(freePort()), "serve.ts"], {
      env: { PDF_ROOT: root, MCP_AUTH_SECRET_KEY: "x".repeat(40) },
    });
    assert.equal(out.code, 1);
    assert.match(oneLine(out.stderr), new RegExp(`^error: PDF_ROOT=${root} needs read access`));
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("without a permission set: one line saying to use one, before any setting is read", async () => {
  const out = await run(["run", "main.ts", "serve"]);
  assert.equal(out.code, 1);
  assert.match(
    oneLine(out.stderr),
    /^error: this run may not read the settings .* start it with its permission set: deno run -q -P=stdio/,
  );
});

Deno.test("the CLI exits 1 with one line when the PDF does not exist, and 0 when it does", async () => {
  const missing = await run([
    ...await taskArgs("cli"),
    "call",
    "search_pdf",
    "--pdf_name",
    "no_such_paper",
    "--query",
    "x",
  ]);
  assert.equal(missing.code, 1);
  assert.equal(JSON.parse(missing.stdout).file_exists, false, "the result is still printed");
  assert.match(oneLine(missing.stderr), /^error: no such PDF in PDF_ROOT \(.*files\); 'deno task cli call list_pdfs'/);
  const found = await run([
    ...await taskArgs("cli"),
    "call",
    "search_pdf",
    "--pdf_name",
    "dvt_prophylaxis_review",
    "--query",
    "heparin",
  ]);
  assert.equal(found.code, 0, found.stderr);
});

Deno.test("the CLI's printed command repeats the call as given, and runs as printed", async () => {
  const root = await outsidePdfRoot();
  try {
    const call = ["call", "search_pdf", JSON.stringify({ pdf_name: "outside_paper", query: "it's heparin" })];
    const refused = await run([...await taskArgs("cli"), ...call], { env: { PDF_ROOT: root } });
    assert.equal(refused.code, 1);
    const line = oneLine(refused.stderr);
    const command = line.match(/start it with: (.+)$/)![1];
    assert.match(command, /^deno run -q -P=cli --allow-read=\S+ main\.ts call search_pdf '\{.*\}'$/);
    const { runScript } = await import("./doc_blocks.ts");
    const out = await runScript(command, { PDF_ROOT: root });
    assert.equal(out.code, 0, out.stderr);
    assert.equal(JSON.parse(out.stdout).file_exists, true);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
