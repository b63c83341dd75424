/**
 * MCP handlers for prompts/list, prompts/get and completion/complete, installed on a Server from the
 * prompt catalogue. Declares the `prompts` and `completions` capabilities itself, so createMcpServer
 * needs one line for all of it.
 */
import type { Runtime } from "../runtime.ts";
import { ProtocolError, ProtocolErrorCode, type Server } from "../sdk.ts";
import { enabledPrompts, RESOURCE_COMPLETIONS } from "./catalog.ts";
import { capped, type Completion } from "./completions.ts";
import type { Completer, PromptDef } from "./prompt_def.ts";

// deno-lint-ignore no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]+/g;

/** Longest argument value accepted: prompts are instructions, not documents. */
export const MAX_ARGUMENT_CHARS = 500;

export function installPrompts(
  server: Server,
  runtime: Runtime,
  prompts = enabledPrompts(runtime.deps.config.toolsets),
) {
  server.registerCapabilities({ prompts: { listChanged: false }, completions: {} });
  const byName = new Map(prompts.map((p) => [p.name, p]));
  const toolNames = new Set(runtime.tools.map((t) => t.name));
  const ctx = { config: runtime.deps.config };
  const resourceTemplates = new Set(runtime.resources.map((r) => r.uriTemplate).filter(Boolean));

  server.setRequestHandler("prompts/list", () => ({
    prompts: prompts.map((p) => ({
      name: p.name,
      title: p.title,
      description: p.description,
      arguments: p.arguments.map((a) => ({ name: a.name, description: a.description, required: a.required })),
    })),
  }));

  server.setRequestHandler("prompts/get", (request) => {
    const prompt = find(byName, request.params.name);
    const args = checkedArguments(prompt, request.params.arguments ?? {});
    return {
      description: prompt.description,
      messages: [{ role: "user" as const, content: { type: "text" as const, text: prompt.render(args, toolNames) } }],
    };
  });

  server.setRequestHandler("completion/complete", async (request): Promise<{ completion: Completion }> => {
    const { ref, argument } = request.params;
    let completer: Completer | undefined;
    if (ref.type === "ref/prompt") {
      completer = find(byName, ref.name).arguments.find((a) => a.name === argument.name)?.complete;
    } else if (resourceTemplates.has(ref.uri)) {
      completer = RESOURCE_COMPLETIONS[ref.uri]?.[argument.name];
    }
    if (!completer) return { completion: { values: [], total: 0, hasMore: false } };
    return { completion: capped(await completer(argument.value.slice(0, MAX_ARGUMENT_CHARS), ctx)) };
  });
}

function find(byName: Map<string, PromptDef>, name: string): PromptDef {
  const prompt = byName.get(name);
  if (!prompt) {
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `Unknown prompt '${name}'. Call prompts/list for the names (${[...byName.keys()].join(", ")}).`,
    );
  }
  return prompt;
}

/** Required arguments present, no unknown ones, every value a short single-purpose string. */
function checkedArguments(prompt: PromptDef, given: Record<string, string>): Record<string, string> {
  const known = new Set(prompt.arguments.map((a) => a.name));
  const unknown = Object.keys(given).filter((k) => !known.has(k));
  const problems = [
    ...unknown.map((k) => `unknown argument '${k}'`),
    ...prompt.arguments.filter((a) => a.required && !given[a.name]?.trim()).map((a) => `'${a.name}' is required`),
    ...Object.entries(given).filter(([, v]) => typeof v !== "string" || v.length > MAX_ARGUMENT_CHARS)
      .map(([k]) => `'${k}' must be text of at most ${MAX_ARGUMENT_CHARS} characters`),
  ];
  if (problems.length) {
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `Prompt '${prompt.name}': ${problems.join("; ")}. Arguments: ${
        prompt.arguments.map((a) => `${a.name}${a.required ? "" : "?"}`).join(", ")
      }.`,
    );
  }
  return Object.fromEntries(
    Object.entries(given).map(([k, v]) => [k, v.replace(CONTROL, " ").trim()]),
  );
}
