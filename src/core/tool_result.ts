/**
 * The MCP CallToolResult every tool call ends in, and its error form: apart from invoke.ts, which runs a
 * call, so that the server can answer a failed import or an unknown tool without loading the call path.
 */
import type { ErrorEnvelope } from "./errors.ts";
import type { ImageBlock } from "./tool_def.ts";

/** An MCP CallToolResult as invokeTool returns it: text block first, structuredContent always present. */
export interface ToolResult {
  /** Further fields a client may read (`_meta`). */
  [key: string]: unknown;
  /** The text block always comes first; attached blocks (images) follow it. */
  content: [{ type: "text"; text: string }, ...ImageBlock[]];
  /** The result, matching the tool's output schema; `{ error }` for a failure. */
  structuredContent: Record<string, unknown>;
  /** Set on failures: `structuredContent.error` is the envelope. */
  isError?: boolean;
}

export function errorResult(error: ErrorEnvelope): ToolResult {
  return { isError: true, content: [{ type: "text", text: errorText(error) }], structuredContent: { error } };
}

/**
 * The error as a model reads it when a client shows only text: the code to branch on and what happened in
 * one line, then what to do; the offending input is quoted briefly, never echoed whole.
 */
export function errorText(error: ErrorEnvelope): string {
  const lines = [`Error ${error.code}: ${error.message}`, `recovery_hint: ${error.recovery_hint}`];
  if (error.invalid_input !== undefined) {
    const quoted = JSON.stringify(error.invalid_input) ?? String(error.invalid_input);
    lines.push(`invalid_input: ${quoted.length > 300 ? `${quoted.slice(0, 300)}…` : quoted}`);
  }
  return lines.join("\n");
}
