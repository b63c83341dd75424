/**
 * The README's "Run against the mock" section, followed as written (only its port 8787 moved to a free
 * port, since tests run side by side): `deno task mock --port N` prints exactly the export lines the
 * README shows, the README's CLI command works with them, and an SDK Client over stdio runs the client
 * entries the README gives (the mock one and the plain one, started from another folder).
 */
import assert from "node:assert/strict";
import { Client } from "../../src/sdk_client.ts";
import { childEnv, freePort, ROOT, run, taskArgs } from "./helpers.ts";

const README = await Deno.readTextFile(`${ROOT}README.md`);

function section(title: string): string {
  const from = README.indexOf(`## ${title}\n`);
  assert.ok(from >= 0, `README has a "${title}" section`);
  const to = README.indexOf("\n## ", from + 1);
  return README.slice(from, to < 0 ? undefined : to);
}

/** The fenced blocks of a section with their language. */
function blocks(text: string): { lang: string; body: string }[] {
  return [...text.matchAll(/```(\w*)\n([\s\S]*?)```/g)].map((m) => ({ lang: m[1], body: m[2] }));
}

/** POSIX-shell words of one command line (single and double quotes, a trailing `# comment`). */
function shellWords(line: string): string[] {
  const words: string[] = [];
  for (const m of line.replace(/\s+#.*$/, "").matchAll(/'([^']*)'|"([^"]*)"|(\S+)/g)) {
    words.push(m[1] ?? m[2] ?? m[3]);
  }
  return words;
}

/** A `deno task <name> …` line as the argv of the task's own command plus the line's extra arguments. */
async function taskLine(line: string): Promise<string[]> {
  const [deno, task, name, ...extra] = shellWords(line);
  assert.deepEqual([deno, task], ["deno", "task"], line);
  return [...await taskArgs(name), ...extra];
}

/** The `mcpServers` entries of a section, with the README's placeholder paths made this checkout's. */
function clientEntries(text: string): Record<string, { command: string; args: string[] }> {
  const entries = {};
  for (const block of blocks(text).filter((b) => b.lang === "json")) {
    const json = block.body.replaceAll("/path/to/science-mcp/", ROOT);
    // The first entry of a name is the section's main one (later blocks show variants of it).
    for (const [name, entry] of Object.entries(JSON.parse(json).mcpServers)) {
      (entries as Record<string, unknown>)[name] ??= entry;
    }
  }
  return entries;
}

async function connect(args: string[], cwd: string, env: Record<string, string> = {}) {
  const { StdioClientTransport } = await import("../e2e/sdk_client.ts");
  const transport = new StdioClientTransport({ command: Deno.execPath(), args, cwd, env: childEnv(env) });
  const client = new Client({ name: "readme", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

async function callOk(client: Client, name: string, args: Record<string, unknown>) {
  const result = await client.callTool({ name, arguments: args });
  assert.notEqual(result.isError, true, JSON.stringify(result.structuredContent));
  return result;
}

Deno.test("README: run against the mock, step by step", async (t) => {
  const port = freePort();
  const mockSection = section("Run against the mock").replaceAll("8787", String(port));
  const shells = blocks(mockSection).filter((b) => b.lang === "sh").map((b) => b.body.trim().split("\n"));
  const mockLine = shells.flat().find((l) => l.startsWith("deno task mock"))!;
  const mock = new Deno.Command(Deno.execPath(), {
    args: await taskLine(mockLine),
    cwd: ROOT,
    env: childEnv(),
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const reader = mock.stdout.pipeThrough(new TextDecoderStream()).getReader();
  try {
    const shown = shells.find((lines) => lines.every((l) => l.startsWith("export ")))!;
    let printed = "";
    while (printed.split("\n").filter((l) => l.startsWith("export ")).length < shown.length) {
      const { value, done } = await reader.read();
      if (done) break;
      printed += value;
    }
    const exports = printed.split("\n").filter((l) => l.startsWith("export "));
    const env = Object.fromEntries(exports.map((l) => l.slice(7).split(/=(.*)/s, 2) as [string, string]));

    await t.step("`deno task mock --port N` prints exactly the export lines the README shows", () => {
      assert.deepEqual(exports, shown);
    });

    await t.step("the README's CLI command answers from the mock with those variables", async () => {
      const cliLine = shells.flat().find((l) => l.startsWith("deno task cli call"))!;
      const out = await run(await taskLine(cliLine), { env });
      assert.equal(out.code, 0, out.stderr);
      const result = JSON.parse(out.stdout);
      assert.equal(result.error, undefined);
      assert.match(JSON.stringify(result), /BRCA1/);
    });

    await t.step("the README's client entry for the mock serves over stdio (port moved with --mock)", async () => {
      const entry = clientEntries(mockSection)["science-mock"];
      assert.ok(entry.args.includes("start:mock"));
      const elsewhere = await Deno.makeTempDir({ prefix: "readme_client_" });
      const client = await connect([...entry.args, "--mock", `http://127.0.0.1:${port}`], elsewhere);
      try {
        const genes = await callOk(client, "search_genes", { query: "BRCA1", organism: "human" });
        assert.match(JSON.stringify(genes.content), /BRCA1/);
        await callOk(client, "fetch_compound_properties", { cids: [2244], properties: ["MolecularFormula"] });
      } finally {
        await client.close();
        await Deno.remove(elsewhere, { recursive: true });
      }
    });

    await t.step("deno task start:mock takes the exported lines instead (set variables win)", async () => {
      const client = await connect(await taskArgs("start:mock"), ROOT, env);
      try {
        await callOk(client, "search_genes", { query: "BRCA1", organism: "human" });
      } finally {
        await client.close();
      }
    });

    await t.step("the mock saw the calls", async () => {
      const requests = await (await fetch(`http://127.0.0.1:${port}/_mock/requests`)).json();
      assert.ok(requests.length >= 4, JSON.stringify(requests).slice(0, 300));
    });
  } finally {
    reader.releaseLock();
    mock.kill("SIGTERM");
    await mock.status;
    await mock.stdout.cancel().catch(() => {});
  }
});

Deno.test("README: the client entry starts the server from any folder and serves the project's PDFs", async () => {
  const entry = clientEntries(section("Connect a client")).science;
  assert.deepEqual(entry.args.slice(0, 3), ["run", "-q", "-P=stdio"]);
  const elsewhere = await Deno.makeTempDir({ prefix: "readme_client_" });
  const client = await connect(entry.args, elsewhere);
  try {
    const result = await callOk(client, "search_pdf", { pdf_name: "dvt_prophylaxis_review", query: "heparin" });
    assert.equal((result.structuredContent as { query_exists: boolean }).query_exists, true);
  } finally {
    await client.close();
    await Deno.remove(elsewhere, { recursive: true });
  }
});

Deno.test("README: every Inspector command separates the server command with --", () => {
  const lines = README.split("\n").filter((l) => l.includes("npx @modelcontextprotocol/inspector"));
  assert.ok(lines.length >= 2);
  for (const line of lines) assert.match(line, / -- deno /, line);
});

Deno.test("start:mock expects the mock where `deno task mock` listens by default, and grants loopback only", async () => {
  const { MOCK_PORT } = await import("../../scripts/mock_upstream.ts");
  const args = await taskArgs("start:mock");
  assert.deepEqual(args.slice(-2), ["--mock", `http://127.0.0.1:${MOCK_PORT}`]);
  assert.ok(args.includes("-P=stdio") && args.includes("--allow-net=127.0.0.1,localhost"), args.join(" "));
});
