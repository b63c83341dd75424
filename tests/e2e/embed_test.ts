/**
 * Embedding from another project: a folder with no deno.json and no import map imports this project's
 * mod.ts by file URL and calls a tool against the mock. That works only because the server's own files
 * name npm packages by full `npm:` specifiers, not by import-map names (checked statically too, in
 * tests/architecture/server_graph_test.ts).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startMockUpstream } from "../../scripts/mock_upstream.ts";
import { childEnv, ROOT } from "./helpers.ts";

const EMBEDDER = `
import { callTool, createRuntime, loadConfig } from ${JSON.stringify(new URL("mod.ts", `file://${ROOT}`).href)};
const runtime = createRuntime({ config: loadConfig(JSON.parse(Deno.args[0])) });
const result = await callTool(runtime, "search_genes", { query: "BRCA1", organism: "human" });
console.log(JSON.stringify(result.structuredContent));
await runtime.close();
`;

Deno.test("a project without an import map imports mod.ts by file URL and calls a tool", async () => {
  const dir = await Deno.makeTempDir({ prefix: "embedder_" });
  const mock = await startMockUpstream({ rates: false });
  try {
    await Deno.writeTextFile(join(dir, "main.ts"), EMBEDDER);
    const env = { ...mock.env, NCBI_REQUEST_DELAY_MS: "0" };
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-q", "--no-lock", "--allow-net", "--allow-env", "--allow-read", "main.ts", JSON.stringify(env)],
      cwd: dir,
      env: childEnv(),
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stderr = new TextDecoder().decode(out.stderr);
    assert.equal(out.code, 0, stderr);
    const result = JSON.parse(new TextDecoder().decode(out.stdout).trim().split("\n").at(-1)!);
    assert.equal(result.items[0].id, "NCBIGene:672", stderr);
  } finally {
    await mock.close();
    await Deno.remove(dir, { recursive: true });
  }
});
