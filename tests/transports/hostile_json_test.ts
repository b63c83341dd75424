import assert from "node:assert/strict";
import { createHttpHandler } from "../../src/transports/http.ts";
import { MAX_JSON_DEPTH, nestsDeeperThan, preview, recoverId } from "../../src/transports/json_limits.ts";
import { testRuntime } from "../helpers/runtime.ts";
import { openSession, rawRequest, readMessage } from "./http_helpers.ts";

const encode = (text: string) => new TextEncoder().encode(text);
const deep = (n: number) => "[".repeat(n) + "]".repeat(n);

Deno.test("nesting is measured on the raw bytes; brackets inside strings do not count", () => {
  assert.equal(nestsDeeperThan(encode(deep(MAX_JSON_DEPTH))), false);
  assert.equal(nestsDeeperThan(encode(deep(MAX_JSON_DEPTH + 1))), true);
  assert.equal(nestsDeeperThan(encode(JSON.stringify({ q: "[".repeat(1000) }))), false);
  assert.equal(nestsDeeperThan(encode(JSON.stringify({ q: '\\"[[' }) + deep(3))), false);
});

Deno.test("the id of an unparsable message is recovered only from the top level of an object", () => {
  assert.equal(recoverId(encode('{"jsonrpc":"2.0","id":7,"method":"x","params":' + deep(10))), 7);
  assert.equal(recoverId(encode('{ "id" : "a\\"b", "method": "x"')), 'a"b');
  assert.equal(recoverId(encode('{"method":"x","params":{"id":9},"id":3')), 3);
  assert.equal(
    recoverId(encode('{"method":"x","params":{"id":9}')),
    undefined,
    "an id inside params is not the message's",
  );
  assert.equal(recoverId(encode('[{"id":1}]')), undefined);
  assert.equal(recoverId(encode('{"id":1.5}')), undefined);
  assert.equal(recoverId(encode('{"id":{"x":1}}')), undefined);
});

Deno.test("previews keep a few hundred characters and say how much was cut", () => {
  assert.equal(preview("short"), "short");
  assert.equal(preview("x".repeat(1000)), `${"x".repeat(200)}… (800 more characters)`);
});

Deno.test("HTTP: deeply nested JSON and malformed % escapes in resource URIs get clean client errors", async (t) => {
  const runtime = testRuntime({ env: { MCP_AUTH_MODE: "none" } });
  const handler = createHttpHandler(runtime, { reapIntervalMs: 0 });
  try {
    const session = await openSession(handler);
    await t.step("100k nested arrays in a tool argument: 400 parse error addressed to the request", async () => {
      const body = `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"search_genes",` +
        `"arguments":{"query":${deep(100_000)}}}}`;
      const response = await handler.fetch(rawRequest(body, { session }));
      assert.equal(response.status, 400);
      const message = await response.json();
      assert.equal(message.id, 5);
      assert.equal(message.error.code, -32700);
      assert.match(message.error.message, /nests deeper than 64 levels/);
    });
    await t.step("100k nested arrays as the whole body", async () => {
      const response = await handler.fetch(rawRequest(deep(100_000), { session }));
      assert.equal(response.status, 400);
      assert.deepEqual((await response.json()).error.code, -32700);
    });
    for (const uri of ["pdf://files/%E0%A4%A", "pdf://files/%zz"]) {
      await t.step(`resources/read ${uri}: -32602 with a readable message`, async () => {
        const request = { jsonrpc: "2.0", id: 7, method: "resources/read", params: { uri } };
        const message = await readMessage(await handler.fetch(rawRequest(request, { session })));
        const error = message.error as { code: number; message: string };
        assert.equal(error.code, -32602);
        assert.match(error.message, /Malformed percent-encoding in pdf:\/\/files\/.*%25/);
      });
    }
  } finally {
    await handler.close();
    await runtime.close();
  }
});
