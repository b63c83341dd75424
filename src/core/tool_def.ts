/**
 * The shape of a tool, independent of what its handler receives: core's half of the tool contract.
 * src/tools/tool_def.ts binds it to this server's ToolContext and toolsets; MCP registration, the CLI,
 * docs/tools.md and the contract tests all read the same {@link ToolDef}, so they cannot drift apart.
 */
import type { z } from "./zod.ts";
import type { Clock } from "./clock.ts";
import type { RecoveryHints } from "./errors.ts";
import type { Logger } from "./log.ts";
import type { OutputCut, Paging } from "./output_budget.ts";

/** One budget for a whole tool call, and the setting that changes it (named in the error). */
export interface CallDeadline {
  /** The budget in milliseconds. */
  ms: number;
  /** The setting that changes it (TOOL_CALL_TIMEOUT_MS). */
  setting: string;
}

/** What invokeTool itself needs from a handler's context. */
export interface InvokeContext {
  /** Times the call and its deadline. */
  clock: Clock;
  /** Where the call's outcome is logged. */
  log: Logger;
  /** Source of the recovery hint of a failed upstream, by upstream name. */
  upstream?: { recoveryHint?: RecoveryHints };
  /** The caller's cancellation; invokeTool hands the handler a signal that also aborts at the deadline. */
  signal?: AbortSignal;
  /** When set, the call ends with an error at this deadline, whatever the handler is doing. */
  deadline?: CallDeadline;
  /** Characters of text a result may hold (default DEFAULT_OUTPUT_MAX_CHARS); larger results are cut. */
  outputBudget?: number;
}

/** MCP tool annotations: hints a client may show or act on. */
export interface ToolAnnotations {
  /** The tool changes nothing. */
  readOnlyHint: boolean;
  /** Calling it twice with the same arguments has the effect of calling it once. */
  idempotentHint: boolean;
  /** It talks to the outside world (its answers can change). */
  openWorldHint: boolean;
  /** It may destroy data (never, here). */
  destructiveHint?: boolean;
}

/** Every tool here only reads. Network tools are open-world (their answers change upstream); local ones not. */
export const READS_NETWORK: ToolAnnotations = Object.freeze({
  readOnlyHint: true,
  idempotentHint: true,
  openWorldHint: true,
});
/** Annotations of a tool that reads only local files. */
export const READS_LOCAL: ToolAnnotations = Object.freeze({
  readOnlyHint: true,
  idempotentHint: true,
  openWorldHint: false,
});

/** A tool whose handler receives a context of type `C`. */
export interface ToolDef<I extends z.ZodObject = z.ZodObject, O extends z.ZodObject = z.ZodObject, C = never> {
  /** The name clients call it by. */
  name: string;
  /** A short human-readable title. */
  title: string;
  /** The toolset it belongs to. */
  toolset: string;
  /** Written for a model: what it returns, when to use it rather than a neighbour, limits, one example. */
  description: string;
  /** Every field `.describe()`d. Arguments reach `run` already parsed (defaults applied). */
  input: I;
  /** The schema structuredContent must match (the MCP outputSchema). */
  output: O;
  /** MCP annotations. */
  annotations: ToolAnnotations;
  /** Example arguments: shown in docs and `cli help`, and exercised by the contract tests. */
  examples: z.input<I>[];
  /** The handler: validated arguments in, a result matching `output` out; throws ToolError for failures. */
  run(args: z.output<I>, ctx: C): Promise<z.input<O>>;
  /** A compact text rendering of a successful result (the text block next to structuredContent). */
  render(result: z.output<O>): string;
  /**
   * How to get what the output budget cut from a result (an offset, a cursor, the omitted ids), as one
   * sentence; without it the cut notice names the omitted ids or says to ask for less.
   */
  rest?(cut: OutputCut, args: Record<string, unknown>): string | undefined;
  /**
   * How the tool pages (#31): the output budget then cuts only its paged list or text and lets the tool
   * rewrite the page fields from what was kept, so the next call continues exactly after it.
   */
  paging?: Paging<z.output<O>>;
  /**
   * A hint for an argument that failed its schema with a value of the wrong kind (a compound name where a CID is
   * wanted): the call that turns it into what the tool takes. Generic hints (unknown names, PMIDs) come first.
   */
  inputHint?(field: string, value: unknown): string | undefined;
}

/** Any tool whose handler takes a context of type `C`. */
// deno-lint-ignore no-explicit-any
export type ToolDefFor<C> = ToolDef<any, any, C>;

/** Any tool, whatever its context. */
// deno-lint-ignore no-explicit-any
export type AnyToolDef = ToolDefFor<any>;

/** A content block a result carries besides its text block and outside structuredContent (MCP ImageContent). */
export interface ImageBlock {
  /** Always `image`. */
  type: "image";
  /** Base64 of the bytes. */
  data: string;
  /** e.g. `image/png`. */
  mimeType: string;
}

const EXTRA_CONTENT = Symbol("extraContent");

/**
 * Attaches content blocks (an image) to a `run` result. They leave after the text block and never enter
 * structuredContent, which stays small and schema-checked; the result object itself is returned.
 * @example return withContent({ cid, imageUrl, bytes }, [{ type: "image", data, mimeType: "image/png" }]);
 */
export function withContent<T extends object>(result: T, blocks: ImageBlock[]): T {
  return Object.defineProperty(result, EXTRA_CONTENT, { value: blocks, enumerable: false });
}

/** The blocks {@link withContent} attached to a result (none for plain results). */
export function extraContent(result: unknown): ImageBlock[] {
  if (typeof result !== "object" || result === null) return [];
  return (result as { [EXTRA_CONTENT]?: ImageBlock[] })[EXTRA_CONTENT] ?? [];
}

/** One concrete resource, as resources/list shows it. */
export interface ResourceEntry {
  /** Its URI. */
  uri: string;
  /** A short name. */
  name: string;
  /** A human-readable title. */
  title?: string;
  /** What it holds. */
  description?: string;
  /** Its MIME type. */
  mimeType?: string;
  /** Its size in bytes, when known. */
  size?: number;
}

/** One content item of resources/read: text or base64 bytes. */
export interface ResourceContent {
  /** The URI read. */
  uri: string;
  /** Its MIME type. */
  mimeType?: string;
  /** Text content. */
  text?: string;
  /** Base64 of binary content. */
  blob?: string;
}

/**
 * A fixed resource (`uri`) or a family of them (`uriTemplate`, RFC 6570 level 1: `{name}` segments).
 * `list` enumerates concrete instances where that makes sense (local PDFs); `read` serves one URI.
 */
export interface ResourceDef<C = never> {
  /** The toolset it belongs to. */
  toolset: string;
  /** Its name. */
  name: string;
  /** A human-readable title. */
  title?: string;
  /** What it holds. */
  description: string;
  /** The MIME type of its contents. */
  mimeType: string;
  /** A fixed resource's URI. */
  uri?: string;
  /** A family's URI template (`{name}` segments). */
  uriTemplate?: string;
  /** The concrete instances of a family. */
  list?(ctx: C): Promise<ResourceEntry[]>;
  /** Reads one URI (`params`: the template's variables). */
  read(uri: string, params: Record<string, string>, ctx: C): Promise<ResourceContent[]>;
}
