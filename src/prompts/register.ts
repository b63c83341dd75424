/**
 * MCP handlers for prompts/list, prompts/get and completion/complete, installed on a Server from the
 * prompt catalogue, which is imported on the first of these requests rather than at start. Declares the
 * `prompts` and `completions` capabilities itself, so createMcpServer needs one line for all of it.
 */
import { z } from "../core/zod.ts";
import { onDemand } from "../core/on_demand.ts";
import type { Runtime } from "../runtime.ts";
import { ProtocolError, ProtocolErrorCode, type Server } from "../sdk.ts";
import type { Completion } from "./completions.ts";
import type { Completer, PromptDef } from "./prompt_def.ts";

// deno-lint-ignore no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]+/g;

/** Longest argument value accepted: prompts are instructions, not documents. */
export const MAX_ARGUMENT_CHARS = 500;

export function installPrompts(server: Server, runtime: Runtime) {
  server.registerCapabilities({ prompts: { listChanged: false }, completions: {} });
  let loading: Promise<Prompts> | undefined;
  const load = () => loading ??= loadPrompts(runtime);
  const toolNames = new Set(runtime.catalogue.tools.map((t) => t.name));
  const ctx = { config: runtime.deps.config };
  const resourceTemplates = new Set(runtime.catalogue.resources.map((r) => r.uriTemplate).filter(Boolean));

  server.setRequestHandler("prompts/list", async () => ({
    prompts: (await load()).prompts.map((p) => ({
      name: p.name,
      title: p.title,
      description: p.description,
      arguments: p.arguments.map((a) => ({ name: a.name, description: a.description, required: a.required })),
    })),
  }));

  // Our own params check, not the wire schema's: a wrong type gets -32602 with one sentence, not -32603
  // with a raw zod dump.
  server.setRequestHandler("prompts/get", { params: GET_PARAMS }, async (params) => {
    if (typeof params.name !== "string") {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, "prompts/get needs the prompt's name as text.");
    }
    const prompt = find((await load()).byName, params.name);
    const args = checkedArguments(prompt, argumentObject(prompt, params.arguments));
    return {
      description: prompt.description,
      messages: [{ role: "user" as const, content: { type: "text" as const, text: prompt.render(args, toolNames) } }],
    };
  });

  server.setRequestHandler("completion/complete", async (request): Promise<{ completion: Completion }> => {
    const { ref, argument } = request.params;
    const { byName, resourceCompletions, capped } = await load();
    let completer: Completer | undefined;
    if (ref.type === "ref/prompt") {
      completer = find(byName, ref.name).arguments.find((a) => a.name === argument.name)?.complete;
    } else if (resourceTemplates.has(ref.uri)) {
      completer = resourceCompletions[ref.uri]?.[argument.name];
    }
    if (!completer) return { completion: { values: [], total: 0, hasMore: false } };
    return { completion: capped(await completer(argument.value.slice(0, MAX_ARGUMENT_CHARS), ctx)) };
  });
}

/** The enabled prompts and the completion sources, once imported. */
interface Prompts {
  prompts: readonly PromptDef[];
  byName: Map<string, PromptDef>;
  resourceCompletions: Readonly<Record<string, Readonly<Record<string, Completer>>>>;
  capped: (values: string[]) => Completion;
}

async function loadPrompts(runtime: Runtime): Promise<Prompts> {
  const [{ enabledPrompts, RESOURCE_COMPLETIONS }, { capped }] = await Promise.all([
    onDemand<typeof import("./catalog.ts")>("prompts/catalog.ts"),
    onDemand<typeof import("./completions.ts")>("prompts/completions.ts"),
  ]);
  const prompts = enabledPrompts(runtime.deps.config.toolsets);
  return {
    prompts,
    byName: new Map(prompts.map((p) => [p.name, p])),
    resourceCompletions: RESOURCE_COMPLETIONS,
    capped,
  };
}

/** Shape only; every value is checked by hand below, so each mistake gets one sentence. */
const GET_PARAMS = z.looseObject({ name: z.unknown().optional(), arguments: z.unknown().optional() });

function argumentObject(prompt: PromptDef, given: unknown): Record<string, unknown> {
  if (given === undefined || given === null) return {};
  if (typeof given !== "object" || Array.isArray(given)) {
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `Prompt '${prompt.name}': arguments must be an object of text values, e.g. {"${prompt.arguments[0]?.name}":"…"}.`,
    );
  }
  return given as Record<string, unknown>;
}

const isBlank = (value: unknown) => value === undefined || (typeof value === "string" && !value.trim());

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
function checkedArguments(prompt: PromptDef, given: Record<string, unknown>): Record<string, string> {
  const known = new Set(prompt.arguments.map((a) => a.name));
  const unknown = Object.keys(given).filter((k) => !known.has(k));
  const problems = [
    ...unknown.map((k) => `unknown argument '${k}'`),
    ...prompt.arguments.filter((a) => a.required && isBlank(given[a.name])).map((a) => `'${a.name}' is required`),
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
    Object.entries(given as Record<string, string>).map(([k, v]) => [k, v.replace(CONTROL, " ").trim()]),
  );
}
