import assert from "node:assert/strict";
import { openSessionLog, pruneSessionLogs, sessionLogName } from "../../src/core/session_log.ts";
import { loadConfig } from "../../src/config.ts";

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
    first.log.info("request", { tool: "t", arguments: { api_key: "k", q: "x" } });
    second.log.info("request", { tool: "t" });
    assert.equal(first.path, `${dir}/2026-01-01_00-00-00.log`);
    assert.equal(second.path, `${dir}/2026-01-01_00-00-00-2.log`);
    first.close();
    first.close();
    first.log.info("after close is dropped");
    second.close();
    const lines = (await Deno.readTextFile(first.path!)).trim().split("\n").map((l) => JSON.parse(l));
    assert.equal(lines.length, 1);
    assert.deepEqual(lines[0].arguments, { api_key: "REDACTED", q: "x" });
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("a session that logs nothing leaves no file, not even its folder", async () => {
  const root = await Deno.makeTempDir();
  try {
    const quiet = openSessionLog(`${root}/logs`, Date.UTC(2026, 0, 1));
    quiet.close();
    assert.equal(quiet.path, undefined);
    assert.deepEqual([...Deno.readDirSync(root)], []);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("300 sessions leave at most maxFiles files: the oldest are pruned first", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/notes.txt`, "not a session log: never pruned");
    const start = Date.UTC(2026, 0, 1);
    for (let i = 0; i < 300; i++) {
      const session = openSessionLog(dir, start + i * 1000, { session: i }, { limits: { maxFiles: 20 } });
      session.log.info("request", { tool: "t" });
      session.close();
    }
    const names = [...Deno.readDirSync(dir)].map((e) => e.name).sort();
    assert.equal(names.length, 21);
    assert.ok(names.includes("notes.txt"));
    assert.equal(names[0], sessionLogName(start + 280 * 1000) + ".log", "the 20 newest sessions remain");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a big session's file is rotated at the size cap: one older part, each part within the cap", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const session = openSessionLog(dir, Date.UTC(2026, 0, 1), {}, { limits: { maxFileBytes: 2_000 } });
    for (let i = 0; i < 100; i++) session.log.info("result", { request: i, text: "x".repeat(100) });
    session.close();
    const names = [...Deno.readDirSync(dir)].map((e) => e.name).sort();
    assert.deepEqual(names, ["2026-01-01_00-00-00.1.log", "2026-01-01_00-00-00.log"]);
    for (const name of names) {
      const size = Deno.statSync(`${dir}/${name}`).size;
      assert.ok(size > 0 && size <= 2_000, `${name}: ${size} bytes`);
    }
    const last = (await Deno.readTextFile(`${dir}/2026-01-01_00-00-00.log`)).trim().split("\n").at(-1)!;
    assert.equal(JSON.parse(last).request, 99, "the newest records are in the current file");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("pruning drops session logs older than maxAgeMs and keeps the file just created", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const old = `${dir}/2020-01-01_00-00-00.log`;
    await Deno.writeTextFile(old, "{}\n");
    await Deno.utime(old, new Date("2020-01-02"), new Date("2020-01-02"));
    await Deno.writeTextFile(`${dir}/2026-01-01_00-00-00.log`, "{}\n");
    pruneSessionLogs(dir, { maxFileBytes: 1_000, maxFiles: 10, maxAgeMs: 24 * 3600_000 });
    assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name), ["2026-01-01_00-00-00.log"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("an unwritable folder turns the session log off with one report, and the session goes on", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const blocker = `${dir}/a-file`;
    await Deno.writeTextFile(blocker, "");
    const errors: unknown[] = [];
    const session = openSessionLog(`${blocker}/logs`, 0, {}, { onError: (e) => errors.push(e) });
    session.log.info("one");
    session.log.info("two");
    assert.equal(errors.length, 1);
    assert.equal(session.path, undefined);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("LOGS_DIR: stdio logs to the project's ./logs by default, HTTP only when set, 'off' turns it off", () => {
  assert.equal(loadConfig({}, { root: "/srv/app" }).logsDir, "/srv/app/logs");
  assert.equal(loadConfig({ MCP_TRANSPORT_TYPE: "http" }, { root: "/srv/app" }).logsDir, undefined);
  assert.equal(loadConfig({ MCP_TRANSPORT_TYPE: "http", LOGS_DIR: "l" }, { root: "/srv/app" }).logsDir, "/srv/app/l");
  assert.equal(loadConfig({ LOGS_DIR: "off" }, { root: "/srv/app" }).logsDir, undefined);
  assert.equal(loadConfig({ LOGS_DIR: "OFF", MCP_TRANSPORT_TYPE: "http" }).logsDir, undefined);
});

Deno.test("a result's line is the one log.info('result') writes, however often the same result is logged", async () => {
  const root = await Deno.makeTempDir();
  try {
    const result = {
      articles: [{ pmid: "1", title: "t".repeat(5000), url: "https://x.org/?api_key=SECRET&db=pubmed" }],
      headers: { token: "SECRET" },
      deep: { a: { b: { c: { d: { e: { f: { g: { h: "too deep" } } } } } } } },
      note: "naïve — non-ASCII",
    };
    const generic = openSessionLog(`${root}/generic`, 0, { session: "s1" });
    const fast = openSessionLog(`${root}/fast`, 0, { session: "s1" });
    for (let i = 0; i < 3; i++) {
      generic.log.info("result", { request: String(i), tool: "fetchArticleDetails", result });
      fast.result({ request: String(i), tool: "fetchArticleDetails" }, result);
    }
    generic.close();
    fast.close();
    const lines = async (log: typeof fast) =>
      (await Deno.readTextFile(log.path!)).replace(/"time":"[^"]+"/g, '"time":"T"').trim().split("\n");
    const expected = await lines(generic);
    assert.equal(expected.length, 3);
    assert.deepEqual(await lines(fast), expected);
    assert.doesNotMatch(expected.join("\n"), /SECRET/);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
