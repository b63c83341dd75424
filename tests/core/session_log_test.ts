import assert from "node:assert/strict";
import { openSessionLog, sessionLogName } from "../../src/core/session_log.ts";

Deno.test("session log files are named after the session start in UTC", () => {
  assert.equal(sessionLogName(Date.UTC(2026, 1, 3, 4, 5, 6, 789)), "2026-02-03_04-05-06");
});

Deno.test("two sessions starting in the same second get two files, created in a new directory", async () => {
  const root = await Deno.makeTempDir();
  const dir = `${root}/logs/nested`;
  const start = Date.UTC(2026, 0, 1, 0, 0, 0);
  try {
    const first = openSessionLog(dir, start);
    const second = openSessionLog(dir, start + 500);
    assert.equal(first.path, `${dir}/2026-01-01_00-00-00.log`);
    assert.equal(second.path, `${dir}/2026-01-01_00-00-00-2.log`);
    first.log.info("request", { tool: "t", arguments: { api_key: "k", q: "x" } });
    first.close();
    first.close();
    first.log.info("after close is dropped");
    second.close();
    const lines = (await Deno.readTextFile(first.path)).trim().split("\n").map((l) => JSON.parse(l));
    assert.equal(lines.length, 1);
    assert.deepEqual(lines[0].arguments, { api_key: "REDACTED", q: "x" });
    assert.equal(await Deno.readTextFile(second.path), "");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
