/**
 * The unit prompts plug into, as ToolDef is for tools: one {@link PromptDef} per MCP prompt. prompts/list,
 * prompts/get, completion/complete and the tests all read the same objects.
 */
import type { Config, ToolsetName } from "../config.ts";

/** What a completer may read: the configuration (PDF_ROOT). */
export interface CompletionContext {
  config: Config;
}

/** Every value an argument can take that starts with (or contains) what was typed, best first. */
export type Completer = (typed: string, ctx: CompletionContext) => string[] | Promise<string[]>;

export interface PromptArgument {
  name: string;
  description: string;
  required: boolean;
  /** Offered by completion/complete when the values are enumerable. */
  complete?: Completer;
}

export interface PromptDef {
  name: string;
  title: string;
  /** Written for the person picking a prompt: the job it does and the tools it chains. */
  description: string;
  /** Toolsets whose tools the prompt chains: it is listed only when all of them are enabled. */
  toolsets: ToolsetName[];
  arguments: PromptArgument[];
  /** Arguments that produce a complete prompt: exercised by the tests. */
  example: Record<string, string>;
  /**
   * The user message. `tools` holds the names of the enabled tools, so optional steps name only tools this
   * server offers.
   */
  render(args: Record<string, string>, tools: ReadonlySet<string>): string;
}

/** Identity function that checks the literal against {@link PromptDef}. */
export function definePrompt(def: PromptDef): PromptDef {
  return def;
}

const SLOT = "\u0000slot:";

/**
 * A number the model fills in from an earlier step, written bare in the call (`{"cid":<CID>}`), so the
 * call the model copies sends a number, as the tool's schema wants, not the string "<CID>".
 */
export function numberSlot(name: string): unknown {
  return `${SLOT}${name}`;
}

/** A tool call written into a prompt: `name {"arg":...}`. */
export function call(tool: string, args: Record<string, unknown>): string {
  const defined = Object.fromEntries(Object.entries(args).filter(([, v]) => v !== undefined && v !== ""));
  const json = JSON.stringify(defined).replace(/"\\u0000slot:([^"]+)"/g, "<$1>");
  return `${tool} ${json}`;
}
