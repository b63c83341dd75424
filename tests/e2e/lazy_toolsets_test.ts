/**
 * The server as `deno task start` runs it imports each toolset on its first call (src/lazy_catalog.ts), by
 * a path Deno did not load at start: under -P=stdio, first calls of every tool, all at once, each reach
 * the tool's own argument check.
 */
import assert from "node:assert/strict";
import { TOOLSETS } from "../../src/catalog.ts";
import { Client } from "../../src/sdk_client.ts";
import { childEnv, ROOT } from "./helpers.ts";
import { StdioClientTransport } from "./sdk_client.ts";

Deno.test("under -P=stdio every toolset's first call is answered by its tool, concurrent calls included", async () => {
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: ["run", "-P=stdio", "main.ts", "serve", "--transport", "stdio"],
    cwd: ROOT,
    env: childEnv(),
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Uint8Array) => (stderr += new TextDecoder().decode(chunk)));
  const client = new Client({ name: "e2e-lazy", version: "1.0.0" });
  await client.connect(transport);
  try {
    // Only the tool's own zod schema answers INVALID_INPUT (a toolset that failed to load is INTERNAL).
    const calls = TOOLSETS.flatMap((toolset) => toolset.tools.map((tool) => ({ toolset: toolset.name, tool })));
    const results = await Promise.all(
      calls.map(({ tool }) => client.callTool({ name: tool.name, arguments: { no_such_argument: 1 } })),
    );
    for (const [i, result] of results.entries()) {
      const error = (result.structuredContent as { error?: { code: string; message: string } }).error;
      assert.equal(error?.code, "INVALID_INPUT", `${calls[i].tool.name}: ${JSON.stringify(error)}\n${stderr}`);
    }
  } finally {
    await client.close();
  }
});
