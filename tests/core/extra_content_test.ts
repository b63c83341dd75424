import assert from "node:assert/strict";
import { z } from "zod";
import { systemClock } from "../../src/core/clock.ts";
import { extraContent, withContent } from "../../src/core/tool_def.ts";
import { defineTool } from "../../src/tools/tool_def.ts";
import { connectClient, testRuntime } from "../helpers/runtime.ts";

const picture = defineTool({
  name: "picture_test",
  title: "Picture",
  toolset: "pdf",
  description: 'Returns a tiny image next to its structured result. Example: {"size":3}',
  input: z.object({ size: z.number().int().min(1).max(12_000_000).describe("Bytes of base64 data") }),
  output: z.object({ bytes: z.number().int() }),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  examples: [{ size: 3 }],
  run(args) {
    const data = "A".repeat(args.size);
    return Promise.resolve(withContent({ bytes: args.size }, [{ type: "image", data, mimeType: "image/png" }]));
  },
  render: (r) => `an image of ${r.bytes} bytes is attached`,
});

Deno.test("withContent attaches blocks that travel after the text block, outside structuredContent", async (t) => {
  await t.step("the attachment is invisible to JSON and to plain results", () => {
    const result = withContent({ a: 1 }, [{ type: "image", data: "QQ==", mimeType: "image/png" }]);
    assert.equal(JSON.stringify(result), '{"a":1}');
    assert.equal(extraContent(result).length, 1);
    assert.deepEqual(extraContent({ a: 1 }), []);
    assert.deepEqual(extraContent(null), []);
  });
  const { client, close } = await connectClient(testRuntime({ clock: systemClock }), {
    extension: { tools: [picture] },
  });
  try {
    await t.step("over MCP: text block first, then the image block; structuredContent has no image", async () => {
      const result = await client.callTool({ name: "picture_test", arguments: { size: 8 } });
      assert.deepEqual(result.content, [
        { type: "text", text: "an image of 8 bytes is attached" },
        { type: "image", data: "AAAAAAAA", mimeType: "image/png" },
      ]);
      assert.deepEqual(result.structuredContent, { bytes: 8 });
    });
    await t.step("attached data counts towards the 8 MB result limit", async () => {
      const result = await client.callTool({ name: "picture_test", arguments: { size: 9_000_000 } });
      assert.equal(result.isError, true);
      assert.equal((result.structuredContent as { error: { code: string } }).error.code, "PAYLOAD_TOO_LARGE");
    });
  } finally {
    await close();
  }
});
