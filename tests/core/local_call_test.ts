/** A local tool's first call does not build the upstream pipeline; a network tool's does (src/runtime.ts invokeShared). */
import assert from "node:assert/strict";

Deno.test("a first call of a local tool builds no upstream pipeline; the first network call does", async () => {
  const root = await Deno.makeTempDir();
  try {
    await Deno.copyFile(new URL("../../fixtures/pdf/built__three_columns.pdf", import.meta.url), `${root}/a.pdf`);
    const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", new URL("./local_call_probe.ts", import.meta.url).pathname, root],
      stdout: "piped",
      stderr: "piped",
      env: { MCP_LOG_LEVEL: "error" },
    }).output();
    assert.equal(code, 0, new TextDecoder().decode(stderr));
    const line = new TextDecoder().decode(stdout).trim().split("\n").at(-1)!;
    assert.deepEqual(JSON.parse(line), { localError: false, afterLocal: false, afterNetwork: true });
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
