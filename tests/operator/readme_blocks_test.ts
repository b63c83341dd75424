/**
 * Every command block of README.md and docs/ runs in a test, as written, offline. This file holds the
 * coverage table (a block added without a test fails here) and runs the blocks that need no fixed port:
 * CLI calls (live services → the mock, through the export lines the README gives), the stdio server
 * commands (an MCP client over `sh -c <line>`), the printed start error, the nginx settings. The server
 * blocks on ports 3010/3011 run in readme_servers_test.ts; the mock walkthrough and the client JSON entries
 * in readme_mock_test.ts and readme_pdf_folder_test.ts; docs/tools.md (generated) through the catalogue.
 */
import assert from "node:assert/strict";
import { ALL_TOOLS } from "../../src/catalog.ts";
import { parseToolArgs } from "../../src/cli/args.ts";
import { ENV_VARS } from "../../src/config.ts";
import { startMockUpstream } from "../../scripts/mock_upstream.ts";
import { Client } from "../../src/sdk_client.ts";
import { block, commandLines, docBlocks, runScript } from "./doc_blocks.ts";
import { childEnv, ROOT } from "./helpers.ts";

const README = docBlocks("README.md");

/** How each block is tested: the closing note of #33 lists this table. */
export const COVERAGE: Record<string, string> = {
  "README.md › Quick start #1":
    "readme_blocks_test: the CLI line via sh (offline PDF); `deno task start` via sh, MCP client",
  "README.md › Connect a client #1": "readme_mock_test + readme_blocks_test: JSON parsed, its args and env launched",
  "README.md › Connect a client #2": "readme_pdf_folder_test: JSON parsed, launched with a temp PDF folder",
  "README.md › Connect a client #3": "readme_blocks_test: marked; npx not run, the server command after -- via sh",
  "README.md › Run against the mock #1": "readme_mock_test: `deno task mock --port N` (free port for 8787)",
  "README.md › Run against the mock #2": "readme_mock_test: the printed export lines equal the block",
  "README.md › Run against the mock #3": "readme_mock_test: the CLI line with those exports",
  "README.md › Run against the mock #4":
    "readme_mock_test: JSON parsed, its command launched (--mock at the free port)",
  "README.md › Run against the mock #5": "readme_blocks_test: marked; npx not run, the server commands after -- via sh",
  "README.md › Protocol versions: 2026-07-28 and 2025-11-25 #1":
    "TypeScript, not a shell block: tests/e2e/eras_test.ts drives both eras with the SDK client",
  "README.md › Protocol versions: 2026-07-28 and 2025-11-25 #2":
    "readme_servers_test: run via sh after the token block, on 3010 (port lock)",
  "README.md › HTTP with a token #1": "readme_servers_test: run via sh on 3010 (port lock)",
  "README.md › Exposing the HTTP server #1":
    "readme_blocks_test: nginx not run; its limits checked against the settings",
  "README.md › OAuth for remote connectors #1":
    "readme_servers_test: marked; loopback JWKS for Auth0, on 3010 (port lock)",
  "README.md › `deno serve` and Deno Deploy #1": "readme_servers_test: … replaced by a secret, on 3010 (port lock)",
  "README.md › `deno serve` and Deno Deploy #2": "readme_servers_test: … replaced by a secret, on 3010 (port lock)",
  "README.md › Several instances, one rate budget #1":
    "readme_servers_test: each group via sh on 3010/3011 (port lock); KV Connect marked, a loopback address",
  "README.md › CLI #1": "readme_blocks_test: marked; every line via sh against the mock (export lines)",
  "README.md › CLI #2": "readme_blocks_test: marked; via sh against the mock, the PNG checked",
  "README.md › CLI #3": "readme_blocks_test: via sh (offline PDF)",
  "README.md › Worked example: from a compound to its papers #1":
    "readme_worked_example_test: both lines against the mock, the ids chained",
  "README.md › One search over every source, and authors #1":
    "readme_search_all_test: every line against the mock, the author id chained",
  "README.md › Keep papers in a library #1": "readme_library_test: every line against the mock",
  "README.md › Permissions #1":
    "readme_blocks_test: the sample line is what `MCP_HTTP_PORT=8080 deno task serve` prints",
};

Deno.test("every block of README.md and docs/ has a test (docs/tools.md: through the catalogue)", async () => {
  const docs = [...Deno.readDirSync(`${ROOT}docs`)].filter((e) => e.name.endsWith(".md") && e.name !== "tools.md");
  const blocks = [...README, ...docs.flatMap((e) => docBlocks(`docs/${e.name}`))];
  assert.deepEqual(blocks.map((b) => b.id).sort(), Object.keys(COVERAGE).sort());
  // The server blocks' test names them too, so a renamed block cannot silently drop out of it.
  const servers = await Deno.readTextFile(`${ROOT}tests/operator/readme_servers_test.ts`);
  for (const [id, how] of Object.entries(COVERAGE)) {
    if (how.startsWith("readme_servers_test")) assert.ok(servers.includes(JSON.stringify(id)), id);
  }
});

Deno.test("docs/tools.md: every command line is a catalogue example, in the CLI's own argument syntax", () => {
  const blocks = docBlocks("docs/tools.md").filter((b) => b.lang === "sh");
  assert.equal(blocks.length, ALL_TOOLS.length);
  for (const def of ALL_TOOLS) {
    const lines = blocks.find((b) => b.body.includes(`deno task cli call ${def.name} `))?.body.split("\n");
    assert.ok(lines, def.name);
    const parsed = lines.map((line) => {
      const [deno, task, cli, call, name, ...rest] = shellWords(line);
      assert.deepEqual([deno, task, cli, call, name], ["deno", "task", "cli", "call", def.name], line);
      return rest.length === 1 && rest[0].startsWith("{") ? JSON.parse(rest[0]) : parseToolArgs(def, rest);
    });
    // Compared as the tool reads them (its input schema), as `call` does with either syntax.
    const read = (args: unknown) => JSON.stringify(def.input.parse(args));
    const examples = def.examples.map(read);
    for (const args of parsed) assert.ok(examples.includes(read(args)), `${def.name}: ${JSON.stringify(args)}`);
    for (const example of examples) assert.ok(parsed.map(read).includes(example), `${def.name}: ${example}`);
  }
});

/** POSIX words of one line: single and double quotes, no expansions (the docs' lines use none). */
function shellWords(line: string): string[] {
  return [...line.replace(/\s+#.*$/, "").matchAll(/'([^']*)'|"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3]);
}

/** An MCP client over `sh -c <line>` in the project folder (a stdio server command as a user types it). */
async function shellClient(line: string, env: Record<string, string> = {}): Promise<Client> {
  const { StdioClientTransport } = await import("../e2e/sdk_client.ts");
  const transport = new StdioClientTransport({
    command: "sh",
    args: ["-c", line],
    cwd: ROOT,
    env: childEnv({ PWD: ROOT.replace(/\/$/, ""), LOGS_DIR: "off", ...env }),
  });
  const client = new Client({ name: "readme", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

async function listPdfs(client: Client): Promise<string> {
  const result = await client.callTool({ name: "list_pdfs", arguments: {} });
  assert.notEqual(result.isError, true);
  return JSON.stringify(result.structuredContent);
}

Deno.test("Quick start: the CLI call answers from the shipped PDF; deno task start serves MCP", async () => {
  const [call, start] = commandLines(block(README, "README.md › Quick start #1").body);
  const out = await runScript(call);
  assert.equal(out.code, 0, out.stderr);
  const result = JSON.parse(out.stdout);
  assert.equal(result.file_exists, true);
  assert.match(JSON.stringify(result), /heparin/i);
  const client = await shellClient(start.replace(/\s+#.*$/, ""));
  try {
    assert.match(await listPdfs(client), /dvt_prophylaxis_review/);
  } finally {
    await client.close();
  }
});

Deno.test("Inspector blocks: the server command after -- starts as written (npx itself is not run)", async () => {
  const mock = await startMockUpstream({ rates: false });
  try {
    const lines = [
      ...commandLines(block(README, "README.md › Connect a client #3").body),
      ...commandLines(block(README, "README.md › Run against the mock #5").body),
    ];
    assert.equal(lines.length, 3);
    for (const line of lines) {
      const inspector = /^npx @modelcontextprotocol\/inspector(.*?) -- (.+?)(\s+#.*)?$/.exec(line);
      assert.ok(inspector, line);
      const env = Object.fromEntries([...inspector[1].matchAll(/-e (\w+)=(\S+)/g)].map((m) => [m[1], m[2]]));
      // start:mock expects the mock on 8787; exported base URLs win (as the README says), so a free port serves.
      const client = await shellClient(
        inspector[2],
        inspector[2].includes("start:mock") ? { ...env, ...mock.env } : env,
      );
      try {
        assert.match(await listPdfs(client), /dvt_prophylaxis_review/);
        if (inspector[2].includes("start:mock")) {
          const genes = await client.callTool({
            name: "search_genes",
            arguments: { query: "BRCA1", organism: "human" },
          });
          assert.notEqual(genes.isError, true);
        }
      } finally {
        await client.close();
      }
    }
  } finally {
    await mock.close();
  }
});

Deno.test("Connect a client: the JSON entry, env included, serves from another folder", async () => {
  const json = block(README, "README.md › Connect a client #1").body.replaceAll("/path/to/science-mcp/", ROOT);
  const entry = JSON.parse(json).mcpServers.science;
  assert.equal(entry.command, "/Users/you/.deno/bin/deno", "the placeholder `which deno` replaces");
  const { StdioClientTransport } = await import("../e2e/sdk_client.ts");
  const elsewhere = await Deno.makeTempDir({ prefix: "readme_client_" });
  const client = new Client({ name: "readme", version: "1.0.0" });
  try {
    await client.connect(
      new StdioClientTransport({
        command: Deno.execPath(),
        args: entry.args,
        cwd: elsewhere,
        env: childEnv({ ...entry.env, LOGS_DIR: "off" }),
      }),
    );
    assert.match(await listPdfs(client), /dvt_prophylaxis_review/);
  } finally {
    await client.close();
    await Deno.remove(elsewhere, { recursive: true });
  }
});

Deno.test("CLI blocks: every line runs against the mock (its export lines), the PNG is written", async () => {
  const mock = await startMockUpstream({ rates: false });
  const png = `${ROOT}aspirin.png`;
  try {
    const lines = commandLines(block(README, "README.md › CLI #1").body);
    assert.equal(lines.length, 4);
    const outs = await Promise.all(lines.map((line) => runScript(line, mock.env)));
    for (const [i, out] of outs.entries()) assert.equal(out.code, 0, `${lines[i]}\n${out.stderr}`);
    const list = JSON.parse(outs[0].stdout) as { name: string }[];
    assert.deepEqual(list.map((t) => t.name), ALL_TOOLS.map((t) => t.name));
    assert.match(outs[1].stdout, /fetch_compound_properties/);
    assert.match(outs[2].stdout, /TP53/);
    assert.match(outs[3].stdout, /3672/);

    const [image] = commandLines(block(README, "README.md › CLI #2").body);
    const out = await runScript(image, mock.env);
    assert.equal(out.code, 0, out.stderr);
    const bytes = await Deno.readFile(png);
    assert.deepEqual([...bytes.subarray(1, 4)], [0x50, 0x4e, 0x47], "a PNG");
    assert.match(out.stderr, /aspirin\.png/);
    assert.doesNotMatch(out.stderr, /Warning Permissions/, "-q hides Deno's warning");

    const [search] = commandLines(block(README, "README.md › CLI #3").body);
    const found = await runScript(search);
    assert.equal(found.code, 0, found.stderr);
    assert.equal(JSON.parse(found.stdout).query_exists, true);
  } finally {
    await Deno.remove(png).catch(() => {});
    await mock.close();
  }
});

Deno.test("Permissions: the sample start error is what the port setting it names prints (no port is bound)", async () => {
  const sample = block(README, "README.md › Permissions #1").body.trim();
  const port = /^error: MCP_HTTP_PORT=(\d+) /.exec(sample)![1];
  const out = await runScript(`MCP_HTTP_PORT=${port} deno task serve`, { MCP_AUTH_MODE: "none" });
  assert.equal(out.code, 1);
  const line = out.stderr.split("\n").find((l) => l.startsWith("error: "))!;
  // `…` in the sample stands for the hosts between the first and the listen address.
  const [head, tail] = sample.split("…");
  assert.ok(line.startsWith(head), `${line}\n${sample}`);
  assert.ok(line.endsWith(tail), `${line}\n${sample}`);
});

Deno.test("Exposing the HTTP server: the nginx limits match the settings they stand in for", () => {
  const nginx = block(README, "README.md › Exposing the HTTP server #1").body;
  const setting = (name: string) => Number(ENV_VARS.find((v) => v.name === name)!.default);
  assert.equal(Number(/client_max_body_size\s+(\d+)m;/.exec(nginx)![1]) * 1024 * 1024, setting("MCP_MAX_BODY_BYTES"));
  assert.ok(Number(/proxy_read_timeout\s+(\d+)s;/.exec(nginx)![1]) * 1000 > setting("TOOL_CALL_TIMEOUT_MS"));
  assert.match(nginx, new RegExp(`proxy_pass http://127\\.0\\.0\\.1:${setting("MCP_HTTP_PORT")};`));
  assert.match(nginx, /client_body_timeout\s+10s;/, "the server's own 408 comes at 10 s");
});

Deno.test("Permissions: `deno -q task …` prints nothing of Deno's own on stderr (no Task line, no warning)", async () => {
  const out = await runScript("deno -q task cli call list_pdfs");
  assert.equal(out.code, 0, out.stderr);
  assert.equal(out.stderr, "");
  assert.match(out.stdout, /dvt_prophylaxis_review/);
});
