import assert from "node:assert/strict";
import { ManualClock } from "../../src/core/clock.ts";
import { createHttpHandler } from "../../src/transports/http.ts";
import { mintToken } from "../../scripts/token.ts";
import { testRuntime } from "../helpers/runtime.ts";
import type { ServerExtension } from "../../src/server.ts";
import { memoryLogger } from "../../src/core/log.ts";
import { SESSION_LOG_LIMITS } from "../../src/core/session_log.ts";
import { blockingTool, callTool, INITIALIZE, openSession, rawRequest, readMessage, SECRET } from "./http_helpers.ts";

const NOW = 1_700_000_000_000;
const LIST = { jsonrpc: "2.0", id: 2, method: "tools/list" };
const PING = { jsonrpc: "2.0", id: 3, method: "ping" };
const JWT = { MCP_AUTH_MODE: "jwt", MCP_AUTH_SECRET_KEY: SECRET };

function setup(env: Record<string, string> = {}, extension?: ServerExtension) {
  const clock = new ManualClock(NOW);
  const log = memoryLogger();
  const runtime = testRuntime({
    clock,
    log,
    env: { MCP_AUTH_MODE: "none", MCP_SESSION_IDLE_TIMEOUT_MS: "60000", ...env },
  });
  const handler = createHttpHandler(runtime, { reapIntervalMs: 0, extension });
  return {
    clock,
    log,
    handler,
    close: async () => {
      await handler.close();
      await runtime.close();
    },
  };
}

Deno.test("stateful sessions: routing, DELETE and errors", async (t) => {
  const { handler, close } = setup();
  try {
    const session = await openSession(handler);
    await t.step("a request with the session id reaches its server", async () => {
      const response = await handler.fetch(rawRequest(LIST, { session }));
      assert.equal(response.status, 200);
      const message = await readMessage(response);
      assert.ok(Array.isArray((message.result as { tools: unknown[] }).tools));
    });
    await t.step("a request without a session that is not initialize is a 400", async () => {
      const response = await handler.fetch(rawRequest(LIST));
      assert.equal(response.status, 400);
      assert.match((await response.json()).error.message, /Send initialize first/);
    });
    await t.step("GET without a session is a 400", async () => {
      const response = await handler.fetch(rawRequest(undefined, { method: "GET" }));
      assert.equal(response.status, 400);
      await response.body?.cancel();
    });
    await t.step("an unknown session is a 404 telling the client to initialize again", async () => {
      const response = await handler.fetch(rawRequest(LIST, { session: crypto.randomUUID() }));
      assert.equal(response.status, 404);
      assert.match((await response.json()).error.message, /Initialize a new session/);
    });
    await t.step("invalid JSON is a 400 parse error", async () => {
      const response = await handler.fetch(rawRequest("{not json", { session }));
      assert.equal(response.status, 400);
      assert.equal((await response.json()).error.code, -32700);
    });
    await t.step("DELETE ends the session; later requests get 404", async () => {
      assert.equal(handler.sessions, 1);
      const deleted = await handler.fetch(rawRequest(undefined, { method: "DELETE", session }));
      assert.equal(deleted.status, 200);
      await deleted.body?.cancel();
      assert.equal(handler.sessions, 0);
      const after = await handler.fetch(rawRequest(LIST, { session }));
      assert.equal(after.status, 404);
      await after.body?.cancel();
    });
  } finally {
    await close();
  }
});

Deno.test("idle sessions are reaped, an open GET stream included; a running call keeps its session", async (t) => {
  const block = blockingTool();
  const { clock, handler, close } = setup({}, block.extension);
  try {
    await t.step("a session idle longer than MCP_SESSION_IDLE_TIMEOUT_MS expires", async () => {
      const session = await openSession(handler);
      await clock.advance(59_000);
      assert.equal(await handler.reap(), 0);
      await clock.advance(2_000);
      assert.equal(await handler.reap(), 1);
      const response = await handler.fetch(rawRequest(LIST, { session }));
      assert.equal(response.status, 404);
      await response.body?.cancel();
    });
    await t.step(
      "an open GET stream without requests for the idle timeout is closed and its session reaped",
      async () => {
        const session = await openSession(handler);
        const stream = await handler.fetch(rawRequest(undefined, { method: "GET", session }));
        assert.equal(stream.status, 200);
        assert.match(stream.headers.get("content-type") ?? "", /text\/event-stream/);
        await clock.advance(59_000);
        assert.equal(await handler.reap(), 0);
        await clock.advance(2_000);
        assert.equal(await handler.reap(), 1);
        const reader = stream.body!.getReader();
        for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) { /* drain until closed */ }
        const after = await handler.fetch(rawRequest(PING, { session }));
        assert.equal(after.status, 404);
        await after.body?.cancel();
      },
    );
    await t.step("each request restarts the idle time of a session with an open stream", async () => {
      const session = await openSession(handler);
      const stream = await handler.fetch(rawRequest(undefined, { method: "GET", session }));
      await clock.advance(50_000);
      const ping = await handler.fetch(rawRequest(PING, { session }));
      assert.equal(ping.status, 200);
      await readMessage(ping);
      await clock.advance(50_000);
      assert.equal(await handler.reap(), 0);
      await clock.advance(11_000);
      assert.equal(await handler.reap(), 1);
      await stream.body!.cancel();
    });
    await t.step("a call still running keeps its session, however long it takes", async () => {
      const session = await openSession(handler);
      const call = await handler.fetch(rawRequest(callTool(5, "test_block"), { session }));
      await block.started;
      await clock.advance(600_000);
      assert.equal(await handler.reap(), 0);
      block.release();
      const answer = await readMessage(call);
      assert.equal(answer.id, 5);
      assert.ok(answer.result, JSON.stringify(answer));
      await clock.advance(61_000);
      assert.equal(await handler.reap(), 1);
    });
  } finally {
    await close();
  }
});

Deno.test("a session ends when its token expires, open stream and running call included", async () => {
  const block = blockingTool();
  const { clock, log, handler, close } = setup({ ...JWT, MCP_SESSION_IDLE_TIMEOUT_MS: "3600000" }, block.extension);
  try {
    const short = await mintToken(SECRET, { subject: "alice", now: NOW, ttlSeconds: 120 });
    const listening = await openSession(handler, short);
    const stream = await handler.fetch(rawRequest(undefined, { method: "GET", session: listening, token: short }));
    assert.equal(stream.status, 200);
    const calling = await openSession(handler, short);
    const call = await handler.fetch(rawRequest(callTool(9, "test_block"), { session: calling, token: short }));
    await block.started;
    const renewed = await openSession(handler, short);
    const longer = await mintToken(SECRET, { subject: "alice", now: NOW, ttlSeconds: 3600 });
    const ping = await handler.fetch(rawRequest(PING, { session: renewed, token: longer }));
    await readMessage(ping);

    await clock.advance(119_000);
    assert.equal(await handler.reap(), 0);
    await clock.advance(2_000);
    assert.equal(await handler.reap(), 2, "the two sessions last used with the expired token");
    const cut = await readMessage(call);
    assert.equal(cut.id, 9);
    assert.match((cut.error as { message: string }).message, /token expired/);
    await stream.body!.cancel();
    const reasons = log.records.filter((r) => r.msg === "session closed").map((r) => r.reason);
    assert.deepEqual(reasons, ["token expired", "token expired"]);

    const still = await handler.fetch(rawRequest(PING, { session: renewed, token: longer }));
    assert.equal(still.status, 200, "a newer token of the same subject extended that session");
    await readMessage(still);
  } finally {
    await close();
  }
});

Deno.test("MCP_MAX_SESSIONS caps live sessions; idle ones make room; the 503 names the limit", async () => {
  const { clock, handler, close } = setup({ MCP_MAX_SESSIONS: "1" });
  try {
    await openSession(handler);
    const refused = await handler.fetch(rawRequest(INITIALIZE));
    assert.equal(refused.status, 503);
    assert.equal(refused.headers.get("retry-after"), "30");
    assert.match((await refused.json()).error.message, /all 1 are in use \(MCP_MAX_SESSIONS\)/);
    await clock.advance(61_000);
    await openSession(handler);
    assert.equal(handler.sessions, 1);
  } finally {
    await close();
  }
});

Deno.test("one token cannot fill the server: its subject hits MCP_MAX_SESSIONS_PER_SUBJECT, others still get in", async () => {
  const { handler, close } = setup({ ...JWT, MCP_MAX_SESSIONS: "120" });
  try {
    const alice = await mintToken(SECRET, { subject: "alice", now: NOW });
    let message = "";
    // All at once, as a flood arrives: slots are reserved at admission, so none slips past the check.
    const statuses = await Promise.all(Array.from({ length: 60 }, async () => {
      const response = await handler.fetch(rawRequest(INITIALIZE, { token: alice }));
      if (response.status === 503) message = (await response.json()).error.message;
      else await readMessage(response);
      return response.status;
    }));
    assert.equal(statuses.filter((s) => s === 200).length, 50, "the default quota is 50 sessions per subject");
    assert.equal(statuses.filter((s) => s === 503).length, 10);
    assert.match(
      message,
      /this token.s subject.*\(MCP_MAX_SESSIONS_PER_SUBJECT, at most half of MCP_MAX_SESSIONS\).*DELETE \/mcp/,
    );
    await openSession(handler, await mintToken(SECRET, { subject: "bob", now: NOW }));
    assert.equal(handler.sessions, 51);
  } finally {
    await close();
  }
});

Deno.test("MCP_MAX_SESSIONS below the per-subject quota: one token still gets at most half, the next user gets in", async () => {
  const { handler, close } = setup({ ...JWT, MCP_MAX_SESSIONS: "40" });
  try {
    const alice = await mintToken(SECRET, { subject: "alice", now: NOW });
    const statuses = await Promise.all(Array.from({ length: 40 }, async () => {
      const response = await handler.fetch(rawRequest(INITIALIZE, { token: alice }));
      if (response.status === 200) await readMessage(response);
      else await response.body?.cancel();
      return response.status;
    }));
    assert.equal(statuses.filter((s) => s === 200).length, 20);
    await openSession(handler, await mintToken(SECRET, { subject: "bob", now: NOW }));
    assert.equal(handler.sessions, 21);
  } finally {
    await close();
  }
});

Deno.test("per-subject and global limits each say which one was hit; closing a session frees its slot", async () => {
  const { handler, close } = setup({ ...JWT, MCP_MAX_SESSIONS: "4", MCP_MAX_SESSIONS_PER_SUBJECT: "2" });
  const initialize = async (subject: string) => {
    const response = await handler.fetch(
      rawRequest(INITIALIZE, { token: await mintToken(SECRET, { subject, now: NOW }) }),
    );
    if (response.status !== 503) {
      await readMessage(response);
      return { status: response.status, session: response.headers.get("mcp-session-id")! };
    }
    return { status: 503, message: (await response.json()).error.message as string };
  };
  try {
    const [a1] = [await initialize("alice"), await initialize("alice")];
    const third = await initialize("alice");
    assert.equal(third.status, 503);
    assert.match(third.message!, /MCP_MAX_SESSIONS_PER_SUBJECT/);
    assert.equal((await initialize("bob")).status, 200);
    assert.equal((await initialize("bob")).status, 200);
    const carol = await initialize("carol");
    assert.equal(carol.status, 503);
    assert.match(carol.message!, /\(MCP_MAX_SESSIONS\)/);
    const alice = await mintToken(SECRET, { subject: "alice", now: NOW });
    const deleted = await handler.fetch(rawRequest(undefined, { method: "DELETE", session: a1.session, token: alice }));
    await deleted.body?.cancel();
    assert.equal((await initialize("alice")).status, 200);
  } finally {
    await close();
  }
});

Deno.test("a session belongs to the token subject that opened it", async () => {
  const { handler, close } = setup({ MCP_AUTH_MODE: "jwt", MCP_AUTH_SECRET_KEY: SECRET });
  try {
    const alice = await mintToken(SECRET, { subject: "alice", now: NOW });
    const bob = await mintToken(SECRET, { subject: "bob", now: NOW });
    const session = await openSession(handler, alice);
    const stolen = await handler.fetch(rawRequest(LIST, { session, token: bob }));
    assert.equal(stolen.status, 404);
    await stolen.body?.cancel();
    const own = await handler.fetch(rawRequest(LIST, { session, token: alice }));
    assert.equal(own.status, 200);
    await own.body?.cancel();
  } finally {
    await close();
  }
});

Deno.test("request bodies over MCP_MAX_BODY_BYTES are refused with 413", async () => {
  const { handler, close } = setup({ MCP_MAX_BODY_BYTES: "2048" });
  try {
    const big = { ...INITIALIZE, params: { ...INITIALIZE.params, padding: "x".repeat(4096) } };
    const response = await handler.fetch(rawRequest(big));
    assert.equal(response.status, 413);
    assert.match((await response.json()).error.message, /MCP_MAX_BODY_BYTES/);
    const streamed = new Request("http://127.0.0.1:3010/mcp", {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: ReadableStream.from([new TextEncoder().encode(JSON.stringify(big))]),
    });
    assert.equal((await handler.fetch(streamed)).status, 413);
    assert.equal(handler.sessions, 0);
  } finally {
    await close();
  }
});

Deno.test("stateless mode answers each POST on its own and refuses GET", async () => {
  const { handler, close } = setup({ MCP_SESSION_MODE: "stateless" });
  try {
    const init = await handler.fetch(rawRequest(INITIALIZE));
    assert.equal(init.status, 200);
    assert.equal(init.headers.get("mcp-session-id"), null);
    await readMessage(init);
    const list = await handler.fetch(rawRequest(LIST));
    assert.equal(list.status, 200);
    assert.ok(Array.isArray(((await readMessage(list)).result as { tools: unknown[] }).tools));
    const get = await handler.fetch(rawRequest(undefined, { method: "GET" }));
    assert.equal(get.status, 405);
    await get.body?.cancel();
    assert.equal(handler.sessions, 0);
  } finally {
    await close();
  }
});

Deno.test("LOGS_DIR: one log file per HTTP session that logs; a quiet or refused session leaves none", async () => {
  const dir = await Deno.makeTempDir();
  const { handler, close } = setup({ LOGS_DIR: dir });
  try {
    const refused = await handler.fetch(rawRequest(INITIALIZE, { headers: { accept: "application/json" } }));
    assert.equal(refused.status, 406);
    await refused.body?.cancel();
    const first = await openSession(handler);
    await openSession(handler);
    const unknown = await handler.fetch(
      rawRequest({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "nope" } }, {
        session: first,
      }),
    );
    await readMessage(unknown);
    await handler.close();
    const names = [...Deno.readDirSync(dir)].map((e) => e.name).sort();
    assert.deepEqual(names, ["2023-11-14_22-13-20.log"], "the second session logged nothing: no empty file");
    const lines = (await Deno.readTextFile(`${dir}/2023-11-14_22-13-20.log`)).trim().split("\n").map((l) =>
      JSON.parse(l)
    );
    assert.deepEqual(lines.map((l) => [l.msg, l.tool, l.session]), [["request", "nope", first], [
      "error",
      "nope",
      first,
    ]]);
  } finally {
    await close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("LOGS_DIR: 300 HTTP sessions leave a bounded number of files", async () => {
  const dir = await Deno.makeTempDir();
  const { handler, close } = setup({ LOGS_DIR: dir, MCP_MAX_SESSIONS: "1000", MCP_MAX_SESSIONS_PER_SUBJECT: "500" });
  try {
    for (let i = 0; i < 300; i++) {
      const session = await openSession(handler);
      const call = { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "nope" } };
      await readMessage(await handler.fetch(rawRequest(call, { session })));
    }
    const files = [...Deno.readDirSync(dir)].filter((e) => e.name.endsWith(".log"));
    assert.equal(files.length, SESSION_LOG_LIMITS.maxFiles, "every session logged; the oldest files were pruned");
  } finally {
    await close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("an unwritable LOGS_DIR stops the HTTP server at start-up, naming the variable", async () => {
  const dir = await Deno.makeTempDir();
  const blocker = `${dir}/not-a-dir`;
  await Deno.writeTextFile(blocker, "a file where the log folder should be");
  const runtime = testRuntime({ env: { MCP_AUTH_MODE: "none", LOGS_DIR: `${blocker}/logs` } });
  try {
    assert.throws(() => createHttpHandler(runtime, { reapIntervalMs: 0 }), /LOGS_DIR=.*not writable/);
  } finally {
    await runtime.close();
    await Deno.remove(dir, { recursive: true });
  }
});
