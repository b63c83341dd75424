/**
 * search_pdf's two walls, with the real permission set (`deno run -P=stdio`):
 * 1. the name check refuses a traversal attempt before the file system is touched (INVALID_INPUT);
 * 2. with that check bypassed, Deno's read permission (PDF_ROOT = ./files, the worker's modules and the
 *    cache only) refuses the same read. Wall 2 is shown by running this file as a probe under -P=stdio:
 *    it calls the PDF reader directly with paths outside ./files, including where a symlink would lead
 *    (the reader always opens the resolved path, so symlinks meet the permission check too).
 */
import assert from "node:assert/strict";
import { Client } from "../../src/sdk_client.ts";
import { locatePdf, readPdfBytes } from "../../src/sources/pdf/pdf_files.ts";
import { childEnv, ROOT, runDeno } from "./helpers.ts";

const PROBE = "tests/e2e/pdf_permissions_test.ts";

/** Probe mode: try each path with the reader, wall 1 skipped; print what happened as JSON. */
async function probe(paths: string[]): Promise<void> {
  const outcomes: Record<string, string> = {};
  for (const path of paths) {
    try {
      await readPdfBytes({ path }, 100 * 1024 * 1024);
      outcomes[path] = "read";
    } catch (error) {
      outcomes[path] = (error as Error).name;
    }
  }
  try {
    await locatePdf("./files", "../deno");
    outcomes["name:../deno"] = "located";
  } catch (error) {
    outcomes["name:../deno"] = (error as { code?: string }).code ?? (error as Error).name;
  }
  console.log(JSON.stringify(outcomes));
}

if (import.meta.main && Deno.args[0] === "probe") await probe(Deno.args.slice(1));

Deno.test("wall 2: under -P=stdio, reading outside PDF_ROOT is refused by Deno even without the name check", async () => {
  const outside = await Deno.makeTempDir({ prefix: "pdf_outside_" });
  await Deno.writeTextFile(`${outside}/secret.pdf`, "%PDF-1.4 secret");
  try {
    const paths = [
      "./files/../deno.json",
      `${ROOT}deno.json`,
      `${outside}/secret.pdf`,
      "/etc/passwd",
      "./files/dvt_prophylaxis_review.pdf",
    ];
    const run = await runDeno(["run", "-P=stdio", PROBE, "probe", ...paths]);
    assert.equal(run.code, 0, run.stderr);
    const outcomes = JSON.parse(run.stdout.trim().split("\n").at(-1)!);
    assert.deepEqual(outcomes, {
      "./files/../deno.json": "NotCapable",
      [`${ROOT}deno.json`]: "NotCapable",
      [`${outside}/secret.pdf`]: "NotCapable",
      "/etc/passwd": "NotCapable",
      "./files/dvt_prophylaxis_review.pdf": "read",
      "name:../deno": "INVALID_INPUT",
    });
  } finally {
    await Deno.remove(outside, { recursive: true });
  }
});

Deno.test("wall 1 over stdio: the server under -P=stdio refuses traversal and still searches ./files", async (t) => {
  // Imported here, not at the top: the stdio client reads environment variables when loaded, which the
  // probe (this file under -P=stdio) may not.
  const { StdioClientTransport } = await import("./sdk_client.ts");
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: ["run", "-P=stdio", "main.ts", "serve", "--transport", "stdio"],
    cwd: ROOT,
    env: childEnv({ MCP_LOG_LEVEL: "error" }),
    stderr: "pipe",
  });
  const client = new Client({ name: "e2e-pdf-permissions", version: "1.0.0" });
  await client.connect(transport);
  const search = async (pdf_name: string) => {
    const result = await client.callTool({ name: "search_pdf", arguments: { pdf_name, query: "heparin" } });
    return result.structuredContent as {
      file_exists?: boolean;
      query_exists?: boolean;
      error?: { code: string; invalid_input?: { field: string } };
    };
  };
  try {
    await t.step("the sample paper is searched: the PDF worker runs within the permission set", async () => {
      const r = await search("dvt_prophylaxis_review");
      assert.equal(r.query_exists, true);
    });
    await t.step("traversal names are INVALID_INPUT naming pdf_name", async () => {
      for (const name of ["../deno", "../../etc/passwd", "/etc/passwd", "..%2Fdeno", "files/../deno"]) {
        const r = await search(name);
        assert.equal(r.error?.code, "INVALID_INPUT", name);
        assert.equal(r.error?.invalid_input?.field, "pdf_name");
      }
    });
    await t.step("a plain name outside the folder's contents is simply absent", async () => {
      const r = await search("deno");
      assert.equal(r.file_exists, false);
    });
    await t.step("resources/read refuses a traversal URI", async () => {
      await assert.rejects(client.readResource({ uri: "pdf://files/..%2Fdeno" }), /pdf_name/);
    });
  } finally {
    await client.close();
  }
});
