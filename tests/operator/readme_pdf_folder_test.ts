/**
 * The README's Claude Desktop entry for one's own PDF folder, run as written: the block after the marker
 * `README-TEST: claude-desktop-pdf-folder`, with its placeholder paths replaced by real ones, starts the
 * server, and list_pdfs sees the PDF in that folder.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { Client } from "../../src/sdk_client.ts";
import { childEnv, ROOT } from "./helpers.ts";

const MARKER = "<!-- README-TEST: claude-desktop-pdf-folder -->";

async function readmeEntry(): Promise<{ command: string; args: string[]; env: Record<string, string> }> {
  const readme = await Deno.readTextFile(`${ROOT}README.md`);
  const after = readme.slice(readme.indexOf(MARKER));
  assert.ok(readme.includes(MARKER), "README keeps the marked Claude Desktop PDF-folder block");
  const json = /```json\n([\s\S]*?)\n```/.exec(after)![1];
  return JSON.parse(json).mcpServers.science;
}

Deno.test("the README's Claude Desktop args for one's own PDF folder start a server that lists that folder", async () => {
  const entry = await readmeEntry();
  const papers = await Deno.makeTempDir({ prefix: "readme_papers_" });
  await Deno.copyFile(`${ROOT}files/dvt_prophylaxis_review.pdf`, join(papers, "my_paper.pdf"));
  const root = ROOT.replace(/\/+$/, "");
  const fill = (text: string) => text.replaceAll("/path/to/science-mcp", root).replaceAll("/Users/you/Papers", papers);
  assert.equal(entry.command, "/Users/you/.deno/bin/deno");
  const { StdioClientTransport } = await import("../e2e/sdk_client.ts");
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: entry.args.map(fill),
    // A desktop client starts the server from a folder of its own.
    cwd: papers,
    env: childEnv(Object.fromEntries(Object.entries(entry.env).map(([k, v]) => [k, fill(v)]))),
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Uint8Array) => (stderr += new TextDecoder().decode(chunk)));
  const client = new Client({ name: "readme", version: "1.0.0" });
  try {
    await client.connect(transport);
    const result = await client.callTool({ name: "list_pdfs", arguments: {} });
    const names = (result.structuredContent as { pdfs: { name: string }[] }).pdfs.map((p) => p.name);
    assert.deepEqual(names, ["my_paper"], stderr);
  } finally {
    await client.close();
    await Deno.remove(papers, { recursive: true });
  }
});
