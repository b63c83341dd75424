/**
 * The stdio server as `deno task start` runs it, fed an 11 MiB message (over the 10 MiB limit): it
 * answers with an error addressed to the message's id, logs it on stderr, and keeps serving.
 */
import assert from "node:assert/strict";
import { childEnv, ROOT } from "../e2e/helpers.ts";

Deno.test("stdio server process: an 11 MiB message gets an error, is logged, and the server keeps serving", async () => {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-P=stdio", "main.ts", "serve", "--transport", "stdio"],
    cwd: ROOT,
    env: childEnv(),
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const stderr = new Response(child.stderr).text();
  const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = "";
  const nextMessage = async (): Promise<Record<string, unknown>> => {
    for (;;) {
      const i = buffered.indexOf("\n");
      if (i >= 0) {
        const line = buffered.slice(0, i);
        buffered = buffered.slice(i + 1);
        return JSON.parse(line);
      }
      const { value, done } = await lines.read();
      if (done) throw new Error(`stdout ended; stderr: ${await stderr}`);
      buffered += value;
    }
  };
  const stdin = child.stdin.getWriter();
  const send = (text: string) => stdin.write(new TextEncoder().encode(text));
  try {
    await send(
      JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
      }) + "\n",
    );
    assert.equal((await nextMessage()).id, 1);
    const oversized = `{"jsonrpc":"2.0","id":"big-1","method":"tools/call","params":{"name":"search_genes",` +
      `"arguments":{"query":"${"a".repeat(11 * 1024 * 1024)}"}}}\n`;
    await send(oversized);
    await send(JSON.stringify({ jsonrpc: "2.0", id: 2, method: "ping" }) + "\n");
    const refused = await nextMessage();
    assert.equal(refused.id, "big-1");
    assert.equal((refused.error as { code: number }).code, -32600);
    assert.match((refused.error as { message: string }).message, /11\.0 MiB; stdio accepts at most 10485760 bytes/);
    assert.deepEqual(await nextMessage(), { jsonrpc: "2.0", id: 2, result: {} });
  } finally {
    await stdin.close();
    await lines.cancel();
  }
  const status = await child.status;
  assert.equal(status.code, 0);
  const log = (await stderr).split("\n").filter((l) => l.includes("stdio message refused"));
  assert.equal(log.length, 1, await stderr);
  const record = JSON.parse(log[0]);
  assert.equal(record.id, "big-1");
  assert.ok(log[0].length < 1000, "the log line quotes an excerpt, not 11 MiB");
});
