import assert from "node:assert/strict";
import { z } from "zod";
import { defineTool, type ToolContext } from "../../src/tools/tool_def.ts";
import { ToolError } from "../../src/core/errors.ts";
import { connectClient, testRuntime } from "../helpers/runtime.ts";
import { systemClock } from "../../src/core/clock.ts";

const echo = defineTool({
  name: "echo_test",
  title: "Echo",
  toolset: "pdf",
  description: 'Echoes text. Example: {"text":"hi"}',
  input: z.object({
    text: z.string().min(1).max(10).describe("Text to echo"),
    times: z.number().int().min(1).max(3).default(1).describe("Repetitions"),
  }),
  output: z.object({ echoed: z.string() }),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  examples: [{ text: "hi" }],
  run(args, _ctx: ToolContext) {
    if (args.text === "boom") throw new ToolError("NOT_AVAILABLE", "boom is not available", "Use another word.");
    if (args.text === "crash") throw new TypeError("secret internals");
    return Promise.resolve({ echoed: args.text.repeat(args.times) });
  },
  render: (r) => r.echoed,
});

Deno.test("tools/call runs a ToolDef end to end over MCP", async (t) => {
  const runtime = testRuntime({ clock: systemClock });
  const { client, close } = await connectClient(runtime, { extension: { tools: [echo] } });
  try {
    await t.step("tools/list advertises input and output schemas", async () => {
      const { tools } = await client.listTools();
      const tool = tools.find((x) => x.name === "echo_test")!;
      assert.equal(tool.inputSchema.type, "object");
      assert.deepEqual(tool.inputSchema.required, ["text"]);
      assert.equal(tool.annotations?.readOnlyHint, true);
    });
    await t.step("a success carries structuredContent and a text block", async () => {
      const result = await client.callTool({ name: "echo_test", arguments: { text: "ab", times: 2 } });
      assert.equal(result.isError, undefined);
      assert.deepEqual(result.structuredContent, { echoed: "abab" });
      assert.deepEqual(result.content, [{ type: "text", text: "abab" }]);
    });
    await t.step("invalid arguments become INVALID_INPUT naming the field", async () => {
      const result = await client.callTool({ name: "echo_test", arguments: { text: "" } });
      assert.equal(result.isError, true);
      const error = (result.structuredContent as { error: { code: string; message: string } }).error;
      assert.equal(error.code, "INVALID_INPUT");
      assert.match(error.message, /'text'/);
    });
    await t.step("unknown arguments are rejected, not ignored", async () => {
      const result = await client.callTool({ name: "echo_test", arguments: { text: "a", txet: "b" } });
      const error = (result.structuredContent as { error: { code: string; message: string } }).error;
      assert.equal(error.code, "INVALID_INPUT");
      assert.match(error.message, /txet/);
    });
    await t.step("a ToolError becomes its envelope", async () => {
      const result = await client.callTool({ name: "echo_test", arguments: { text: "boom" } });
      assert.deepEqual(result.structuredContent, {
        error: { code: "NOT_AVAILABLE", message: "boom is not available", recovery_hint: "Use another word." },
      });
    });
    await t.step("an unexpected exception is INTERNAL and leaks nothing", async () => {
      const result = await client.callTool({ name: "echo_test", arguments: { text: "crash" } });
      const error = (result.structuredContent as { error: { code: string; message: string } }).error;
      assert.equal(error.code, "INTERNAL");
      assert.doesNotMatch(JSON.stringify(result), /secret internals/);
    });
  } finally {
    await close();
  }
});

Deno.test("a misspelt nested argument is named by its full path, with its value", async () => {
  const { z } = await import("zod");
  const nested = defineTool({
    ...echo,
    name: "nested_test",
    input: z.object({ range: z.strictObject({ min: z.number().describe("Lower bound") }).describe("A range") }),
    examples: [{ range: { min: 1 } }],
    run: () => Promise.resolve({ echoed: "" }),
  });
  const { client, close } = await connectClient(testRuntime({ clock: systemClock }), {
    extension: { tools: [nested] },
  });
  try {
    const result = await client.callTool({ name: "nested_test", arguments: { range: { min: 1, mxa: 2 } } });
    const error = (result.structuredContent as { error: { code: string; invalid_input: unknown } }).error;
    assert.equal(error.code, "INVALID_INPUT");
    assert.deepEqual(error.invalid_input, {
      field: "range.mxa",
      rule: error.invalid_input && (error.invalid_input as { rule: string }).rule,
      value: 2,
    });
    const typed = await client.callTool({ name: "nested_test", arguments: { range: { min: "x" } } });
    const typedError =
      (typed.structuredContent as { error: { invalid_input: { field: string; value: unknown } } }).error;
    assert.equal(typedError.invalid_input.field, "range.min");
    assert.equal(typedError.invalid_input.value, "x");
  } finally {
    await close();
  }
});
