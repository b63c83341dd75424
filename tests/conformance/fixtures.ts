/**
 * TEST-ONLY: the fixed tools, resources and prompts the MCP conformance suites
 * (@modelcontextprotocol/conformance 0.1.16 and the 2025-11-25 / 2026-07-28 requirement sets of
 * 0.2.0-alpha.12) call by name; the 2026-07-28-only fixtures live in fixtures_modern.ts. Loaded only by
 * scripts/conformance.ts, through a dynamic import of a path computed at run time, so no production entry
 * point (mod.ts, serve.ts, the compiled binary or the bundle) can contain it.
 *
 * Where a ToolDef can express a fixture (text, errors, logging, progress) it is a ToolDef, so the suite
 * exercises the production call path; the rest are raw tools (image/audio/resource content, sampling,
 * elicitation, a hand-written 2020-12 input schema).
 */
import { ToolError } from "../../src/core/errors.ts";
import { defineTool, type ResourceDef } from "../../src/tools/tool_def.ts";
import { type GetPromptResult, ProtocolError, ProtocolErrorCode, type Server } from "../../src/sdk.ts";
import type { HandlerExtra, RawTool, ServerExtension } from "../../src/server.ts";
import { annotations, message, noArgs, raw } from "./fixture_kit.ts";
import { getModernPrompt, MODERN_PROMPTS, modernRawTools, modernTools, verifyRequestState } from "./fixtures_modern.ts";

/** A 1×1 PNG and a 8-sample silent WAV: the smallest valid media the suite accepts. */
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
const WAV = "UklGRjQAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YRAAAAAAAAAAAAAAAAAAAAAAAAAA";

const tools = [
  defineTool({
    name: "test_simple_text",
    title: "Simple text",
    toolset: "pdf",
    description: "Returns a fixed text.",
    input: noArgs,
    output: message,
    annotations,
    examples: [{}],
    run: () => Promise.resolve({ message: "This is a simple text response for testing." }),
    render: (r) => r.message,
  }),
  defineTool({
    name: "test_error_handling",
    title: "Always fails",
    toolset: "pdf",
    description: "Always returns an error.",
    input: noArgs,
    output: message,
    annotations,
    examples: [{}],
    run: () => {
      throw new ToolError("NOT_AVAILABLE", "This tool intentionally returns an error for testing", "Do not retry.");
    },
    render: (r) => r.message,
  }),
  defineTool({
    name: "test_tool_with_logging",
    title: "Logs while running",
    toolset: "pdf",
    description: "Logs three info records, 50 ms apart, through the server's logger.",
    input: noArgs,
    output: message,
    annotations,
    examples: [{}],
    async run(_args, ctx) {
      ctx.log.info("Tool execution started");
      await ctx.clock.sleep(50, ctx.signal);
      ctx.log.info("Tool processing data");
      await ctx.clock.sleep(50, ctx.signal);
      ctx.log.info("Tool execution completed");
      return { message: "Tool with logging executed successfully" };
    },
    render: (r) => r.message,
  }),
  defineTool({
    name: "test_tool_with_progress",
    title: "Reports progress",
    toolset: "pdf",
    description: "Reports progress 0, 50 and 100 of 100, 50 ms apart.",
    input: noArgs,
    output: message,
    annotations,
    examples: [{}],
    async run(_args, ctx) {
      for (const step of [0, 50, 100]) {
        await ctx.progress(step, 100);
        if (step < 100) await ctx.clock.sleep(50, ctx.signal);
      }
      return { message: "Tool with progress executed successfully" };
    },
    render: (r) => r.message,
  }),
];

function stringArgs(...names: string[]) {
  return {
    type: "object",
    properties: Object.fromEntries(names.map((n) => [n, { type: "string" }])),
    required: names,
  };
}

async function elicit(extra: HandlerExtra, server: Server, params: Record<string, unknown>) {
  if (!server.getClientCapabilities()?.elicitation) {
    return { isError: true, content: [{ type: "text" as const, text: "The client does not support elicitation." }] };
  }
  const result = await extra.mcpReq.send({ method: "elicitation/create", params });
  const text = `Elicitation completed: action=${result.action}, content=${JSON.stringify(result.content ?? {})}`;
  return { content: [{ type: "text" as const, text }] };
}

const rawTools: RawTool[] = [
  raw("test_image_content", () => Promise.resolve({ content: [{ type: "image", data: PNG, mimeType: "image/png" }] })),
  raw("test_audio_content", () => Promise.resolve({ content: [{ type: "audio", data: WAV, mimeType: "audio/wav" }] })),
  raw("test_embedded_resource", () =>
    Promise.resolve({
      content: [{
        type: "resource",
        resource: {
          uri: "test://embedded-resource",
          mimeType: "text/plain",
          text: "This is an embedded resource content.",
        },
      }],
    })),
  raw("test_multiple_content_types", () =>
    Promise.resolve({
      content: [
        { type: "text", text: "Multiple content types test:" },
        { type: "image", data: PNG, mimeType: "image/png" },
        {
          type: "resource",
          resource: {
            uri: "test://mixed-content-resource",
            mimeType: "application/json",
            text: JSON.stringify({ test: "data", value: 123 }),
          },
        },
      ],
    })),
  raw("test_sampling", async (args, extra, server) => {
    if (!server.getClientCapabilities()?.sampling) {
      return { isError: true, content: [{ type: "text", text: "The client does not support sampling." }] };
    }
    const result = await extra.mcpReq.send({
      method: "sampling/createMessage",
      params: { messages: [{ role: "user", content: { type: "text", text: String(args.prompt) } }], maxTokens: 100 },
    });
    const content = Array.isArray(result.content) ? result.content[0] : result.content;
    const text = content?.type === "text" ? content.text : `[${content?.type}]`;
    return { content: [{ type: "text", text: `LLM response: ${text}` }] };
  }, stringArgs("prompt")),
  raw("test_elicitation", (args, extra, server) =>
    elicit(extra, server, {
      message: String(args.message),
      requestedSchema: {
        type: "object",
        properties: {
          username: { type: "string", description: "User's response" },
          email: { type: "string", description: "User's email address" },
        },
        required: ["username", "email"],
      },
    }), stringArgs("message")),
  raw("test_elicitation_sep1034_defaults", (_args, extra, server) =>
    elicit(extra, server, {
      message: "Please review and update the form fields with defaults",
      requestedSchema: {
        type: "object",
        properties: {
          name: { type: "string", description: "User name", default: "John Doe" },
          age: { type: "integer", description: "User age", default: 30 },
          score: { type: "number", description: "User score", default: 95.5 },
          status: { type: "string", enum: ["active", "inactive", "pending"], default: "active" },
          verified: { type: "boolean", description: "Verified", default: true },
        },
      },
    })),
  raw("test_elicitation_sep1330_enums", (_args, extra, server) =>
    elicit(extra, server, {
      message: "Please select options from the enum fields",
      requestedSchema: {
        type: "object",
        properties: {
          untitledSingle: { type: "string", enum: ["option1", "option2", "option3"] },
          titledSingle: {
            type: "string",
            oneOf: [
              { const: "value1", title: "First Option" },
              { const: "value2", title: "Second Option" },
              { const: "value3", title: "Third Option" },
            ],
          },
          legacyEnum: {
            type: "string",
            enum: ["opt1", "opt2", "opt3"],
            enumNames: ["Option One", "Option Two", "Option Three"],
          },
          untitledMulti: { type: "array", items: { type: "string", enum: ["option1", "option2", "option3"] } },
          titledMulti: {
            type: "array",
            items: {
              anyOf: [
                { const: "value1", title: "First Choice" },
                { const: "value2", title: "Second Choice" },
                { const: "value3", title: "Third Choice" },
              ],
            },
          },
        },
      },
    })),
  raw(
    "json_schema_2020_12_tool",
    (args) => Promise.resolve({ content: [{ type: "text", text: `Received: ${JSON.stringify(args)}` }] }),
    {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      $defs: {
        address: {
          $anchor: "addressDef",
          type: "object",
          properties: { street: { type: "string" }, city: { type: "string" } },
        },
      },
      properties: {
        name: { type: "string" },
        address: { $ref: "#/$defs/address" },
        contactMethod: { type: "string", enum: ["phone", "email"] },
        phone: { type: "string" },
        email: { type: "string" },
      },
      allOf: [{ anyOf: [{ required: ["phone"] }, { required: ["email"] }] }],
      if: { properties: { contactMethod: { const: "phone" } }, required: ["contactMethod"] },
      then: { required: ["phone"] },
      else: { required: ["email"] },
      additionalProperties: false,
    },
  ),
];

function textResource(uri: string, name: string, mimeType: string, text: string): ResourceDef {
  return {
    toolset: "pdf",
    name,
    description: `Conformance fixture ${uri}.`,
    mimeType,
    uri,
    read: () => Promise.resolve([{ uri, mimeType, text }]),
  };
}

const resources: ResourceDef[] = [
  textResource("test://static-text", "static-text", "text/plain", "This is the content of the static text resource."),
  {
    toolset: "pdf",
    name: "static-binary",
    description: "Conformance fixture test://static-binary.",
    mimeType: "image/png",
    uri: "test://static-binary",
    read: () => Promise.resolve([{ uri: "test://static-binary", mimeType: "image/png", blob: PNG }]),
  },
  textResource("test://watched-resource", "watched-resource", "text/plain", "Watched resource content."),
  {
    toolset: "pdf",
    name: "template",
    description: "Conformance fixture test://template/{id}/data.",
    mimeType: "application/json",
    uriTemplate: "test://template/{id}/data",
    read: (uri, { id }) =>
      Promise.resolve([{
        uri,
        mimeType: "application/json",
        text: JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }),
      }]),
  },
];

const PROMPTS = [
  { name: "test_simple_prompt", description: "A simple prompt without arguments." },
  {
    name: "test_prompt_with_arguments",
    description: "A prompt with two required arguments.",
    arguments: [
      { name: "arg1", description: "First test argument", required: true },
      { name: "arg2", description: "Second test argument", required: true },
    ],
  },
  {
    name: "test_prompt_with_embedded_resource",
    description: "A prompt embedding a resource.",
    arguments: [{ name: "resourceUri", description: "URI of the resource to embed", required: true }],
  },
  { name: "test_prompt_with_image", description: "A prompt with an image." },
];

function getPrompt(name: string, args: Record<string, string>): GetPromptResult["messages"] {
  const user = (content: unknown) => ({ role: "user", content }) as GetPromptResult["messages"][number];
  switch (name) {
    case "test_simple_prompt":
      return [user({ type: "text", text: "This is a simple prompt for testing." })];
    case "test_prompt_with_arguments":
      return [user({ type: "text", text: `Prompt with arguments: arg1='${args.arg1}', arg2='${args.arg2}'` })];
    case "test_prompt_with_embedded_resource":
      return [
        user({
          type: "resource",
          resource: { uri: args.resourceUri, mimeType: "text/plain", text: "Embedded resource content for testing." },
        }),
        user({ type: "text", text: "Please process the embedded resource above." }),
      ];
    case "test_prompt_with_image":
      return [
        user({ type: "image", data: PNG, mimeType: "image/png" }),
        user({ type: "text", text: "Please analyze the image above." }),
      ];
    default:
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown prompt '${name}'.`);
  }
}

export const conformanceExtension: ServerExtension = {
  tools: [...tools, ...modernTools],
  rawTools: [...rawTools, ...modernRawTools],
  resources,
  capabilities: {
    resources: { subscribe: true, listChanged: true },
    prompts: { listChanged: true },
    completions: {},
  },
  verifyRequestState,
  install(server) {
    const subscriptions = new Set<string>();
    server.setRequestHandler("prompts/list", () => ({ prompts: [...PROMPTS, ...MODERN_PROMPTS] }));
    server.setRequestHandler("prompts/get", (request, extra) => {
      const modern = getModernPrompt(request.params.name, extra);
      return modern ?? { messages: getPrompt(request.params.name, request.params.arguments ?? {}) };
    });
    server.setRequestHandler("completion/complete", (request) => {
      const values = ["paris", "park", "party"].filter((v) => v.startsWith(request.params.argument.value));
      return { completion: { values, total: values.length, hasMore: false } };
    });
    server.setRequestHandler("resources/subscribe", (request) => {
      subscriptions.add(request.params.uri);
      return {};
    });
    server.setRequestHandler("resources/unsubscribe", (request) => {
      subscriptions.delete(request.params.uri);
      return {};
    });
  },
};
