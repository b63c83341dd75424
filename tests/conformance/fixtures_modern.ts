/**
 * TEST-ONLY: the fixtures only the 2026-07-28 requirement set of the conformance suite calls: in-band
 * input requests (`input_required` results with elicitation, sampling and roots, integrity-protected
 * `requestState`), a prompt that asks for input, the log-level rule and the `subscriptions/listen`
 * triggers. Written once in the `inputRequired(...)` style; on a 2025 session the SDK turns them into
 * real server→client requests.
 */
import { defineTool } from "../../src/tools/tool_def.ts";
import {
  acceptedContent,
  CLIENT_CAPABILITIES_META_KEY,
  createRequestStateCodec,
  type InputRequests,
  inputRequired,
  ProtocolError,
  ProtocolErrorCode,
} from "../../src/sdk.ts";
import type { HandlerExtra, RawTool } from "../../src/server.ts";
import { annotations, message, noArgs, raw } from "./fixture_kit.ts";

/** Seals `requestState` with a per-process key: a tampered or forged state is refused with -32602. */
const stateCodec = createRequestStateCodec<Record<string, unknown>>({
  key: crypto.getRandomValues(new Uint8Array(32)),
});
export const verifyRequestState = stateCodec.verify;

const text = (value: string) => ({ content: [{ type: "text" as const, text: value }] });
const askName = (prompt = "What is your name?") =>
  inputRequired.elicit({
    message: prompt,
    requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
  });
const askConfirm = () =>
  inputRequired.elicit({
    message: "Please confirm",
    requestedSchema: { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] },
  });
const ask = (prompt: string, maxTokens: number) =>
  inputRequired.createMessage({ messages: [{ role: "user", content: { type: "text", text: prompt } }], maxTokens });
const mint = (payload: Record<string, unknown>) => stateCodec.mint({ ...payload, nonce: crypto.randomUUID() });

function responses(extra: HandlerExtra): Record<string, unknown> | undefined {
  return extra.mcpReq.inputResponses;
}

function samplingText(value: unknown): string | undefined {
  const content = (value as { content?: unknown } | undefined)?.content;
  const block = Array.isArray(content) ? content[0] : content;
  return typeof block?.text === "string" ? block.text : undefined;
}

export const modernTools = [
  defineTool({
    name: "test_logging_tool",
    title: "Logs once",
    toolset: "pdf",
    description: "Logs one info record; a 2026-07-28 request sees it only when its _meta names a log level.",
    input: noArgs,
    output: message,
    annotations,
    examples: [{}],
    run(_args, ctx) {
      ctx.log.info("test_logging_tool ran");
      return Promise.resolve({ message: "logged through the request-scoped channel" });
    },
    render: (r) => r.message,
  }),
];

export const modernRawTools: RawTool[] = [
  raw("test_missing_capability", (_args, extra) => {
    if (responses(extra)?.llm_answer !== undefined) return Promise.resolve(text("sampling round-trip complete"));
    return Promise.resolve(
      inputRequired({ inputRequests: { llm_answer: ask("Reply with the single word: pong", 16) } }),
    );
  }),
  raw("test_streaming_elicitation", () => Promise.resolve(text("stream observed: result frames only"))),
  raw("test_input_required_result_elicitation", (_args, extra) => {
    const name = acceptedContent<{ name: string }>(responses(extra), "user_name")?.name;
    if (typeof name === "string") return Promise.resolve(text(`Hello, ${name}!`));
    return Promise.resolve(inputRequired({ inputRequests: { user_name: askName() } }));
  }),
  raw("test_input_required_result_sampling", (_args, extra) => {
    const answer = responses(extra)?.capital_question;
    if (answer !== undefined) return Promise.resolve(text(`Sampling response: ${samplingText(answer) ?? "?"}`));
    return Promise.resolve(
      inputRequired({ inputRequests: { capital_question: ask("What is the capital of France?", 100) } }),
    );
  }),
  raw("test_input_required_result_list_roots", (_args, extra) => {
    const roots = (responses(extra)?.client_roots as { roots?: { uri?: string }[] } | undefined)?.roots;
    if (Array.isArray(roots)) {
      return Promise.resolve(text(`Client exposed ${roots.length} root(s): ${roots.map((r) => r.uri).join(", ")}`));
    }
    return Promise.resolve(inputRequired({ inputRequests: { client_roots: inputRequired.listRoots() } }));
  }),
  raw("test_input_required_result_request_state", async (_args, extra) => {
    if (acceptedContent(responses(extra), "confirm") === undefined) {
      return inputRequired({ inputRequests: { confirm: askConfirm() }, requestState: await mint({ tool: "state" }) });
    }
    if (extra.mcpReq.requestState() === undefined) {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, "Invalid requestState: missing or not verified.");
    }
    return text("state-ok: requestState verified and confirmation received");
  }),
  raw("test_input_required_result_multiple_inputs", async (_args, extra) => {
    const all = responses(extra);
    const name = acceptedContent<{ name: string }>(all, "user_name")?.name;
    const greeting = samplingText(all?.greeting);
    const roots = (all?.client_roots as { roots?: unknown[] } | undefined)?.roots;
    if (typeof name === "string" && greeting !== undefined && Array.isArray(roots)) {
      return text(`${greeting} ${name}: ${roots.length} root(s) visible`);
    }
    return inputRequired({
      inputRequests: {
        user_name: askName(),
        greeting: ask("Generate a greeting", 50),
        client_roots: inputRequired.listRoots(),
      },
      requestState: await mint({ tool: "multiple_inputs" }),
    });
  }),
  raw("test_input_required_result_multi_round", async (_args, extra) => {
    const state = extra.mcpReq.requestState<Record<string, unknown>>();
    const round = state?.tool === "multi_round" && typeof state.round === "number" ? state.round : 0;
    if (round === 0) {
      return inputRequired({
        inputRequests: { step1: askName("Step 1: What is your name?") },
        requestState: await mint({ tool: "multi_round", round: 1 }),
      });
    }
    if (round === 1) {
      const name = acceptedContent<{ name: string }>(responses(extra), "step1")?.name ?? "unknown";
      return inputRequired({
        inputRequests: {
          step2: inputRequired.elicit({
            message: "Step 2: What is your favorite color?",
            requestedSchema: { type: "object", properties: { color: { type: "string" } }, required: ["color"] },
          }),
        },
        requestState: await mint({ tool: "multi_round", round: 2, name }),
      });
    }
    const color = acceptedContent<{ color: string }>(responses(extra), "step2")?.color ?? "unknown";
    return text(`Multi-round complete: ${String(state?.name ?? "unknown")} likes ${color}`);
  }),
  raw("test_input_required_result_tampered_state", async (_args, extra) => {
    if (extra.mcpReq.requestState() !== undefined && acceptedContent(responses(extra), "confirm") !== undefined) {
      return text("integrity-ok: requestState verified");
    }
    return inputRequired({ inputRequests: { confirm: askConfirm() }, requestState: await mint({ tool: "tampered" }) });
  }),
  raw("test_input_required_result_capabilities", (_args, extra) => {
    if (responses(extra) !== undefined) return Promise.resolve(text("Capability-aware input requests fulfilled"));
    const declared = (extra.mcpReq.envelope as Record<string, Record<string, unknown> | undefined> | undefined)
      ?.[CLIENT_CAPABILITIES_META_KEY];
    const inputRequests: InputRequests = {};
    if (declared?.elicitation !== undefined) inputRequests.user_name = askName();
    if (declared?.sampling !== undefined) inputRequests.greeting = ask("Generate a short greeting", 50);
    if (declared?.roots !== undefined) inputRequests.client_roots = inputRequired.listRoots();
    if (Object.keys(inputRequests).length === 0) return Promise.resolve(text("No declared capability takes input"));
    return Promise.resolve(inputRequired({ inputRequests }));
  }),
  raw("test_trigger_tool_change", (_args, _extra, _server, notifier) => {
    notifier?.toolsChanged();
    return Promise.resolve(text("tools_list_changed published"));
  }),
  raw("test_trigger_prompt_change", (_args, _extra, _server, notifier) => {
    notifier?.promptsChanged();
    return Promise.resolve(text("prompts_list_changed published"));
  }),
];

export const MODERN_PROMPTS = [
  { name: "test_input_required_result_prompt", description: "A prompt that asks for context before rendering." },
];

/** The 2026-07-28 prompt: asks for context in-band, then renders it; undefined for other prompt names. */
export function getModernPrompt(name: string, extra: HandlerExtra) {
  if (name !== "test_input_required_result_prompt") return undefined;
  const context = acceptedContent<{ context: string }>(responses(extra), "user_context")?.context;
  if (typeof context === "string") {
    return {
      messages: [{ role: "user" as const, content: { type: "text" as const, text: `Use the context: ${context}` } }],
    };
  }
  return inputRequired({
    inputRequests: {
      user_context: inputRequired.elicit({
        message: "What context should the prompt use?",
        requestedSchema: { type: "object", properties: { context: { type: "string" } }, required: ["context"] },
      }),
    },
  });
}
