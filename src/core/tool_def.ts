/**
 * The unit everything plugs into. MCP registration, the CLI, docs/tools.md and the contract tests all
 * read the same {@link ToolDef}, so they cannot drift apart.
 */
import type { z } from "zod";
import type { Config, ToolsetName } from "../config.ts";
import type { Clock } from "./clock.ts";
import type { Logger } from "./log.ts";
import type { Upstream } from "../upstream/types.ts";

/** What a handler may use. Everything is injected: handlers never touch globals. */
export interface ToolContext {
  config: Config;
  clock: Clock;
  log: Logger;
  upstream: Upstream;
  /** Aborted when the caller cancels (MCP notifications/cancelled, CLI Ctrl-C). */
  signal: AbortSignal;
  /** Reports progress: an MCP progress notification when the caller asked for one, a bar in the CLI. */
  progress(progress: number, total?: number, message?: string): Promise<void>;
  /**
   * Per-server singletons (a PDF text cache, a worker pool): built on first use, shared by every session
   * of one server, never by two servers in one process.
   */
  shared<T>(key: string, make: () => T): T;
}

export interface ToolAnnotations {
  readOnlyHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
  destructiveHint?: boolean;
}

/** Every tool here only reads. Network tools are open-world (their answers change upstream); local ones not. */
export const READS_NETWORK: ToolAnnotations = Object.freeze({
  readOnlyHint: true,
  idempotentHint: true,
  openWorldHint: true,
});
export const READS_LOCAL: ToolAnnotations = Object.freeze({
  readOnlyHint: true,
  idempotentHint: true,
  openWorldHint: false,
});

export interface ToolDef<I extends z.ZodObject = z.ZodObject, O extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  toolset: ToolsetName;
  /** Written for a model: what it returns, when to use it rather than a neighbour, limits, one example. */
  description: string;
  /** Every field `.describe()`d. Arguments reach `run` already parsed (defaults applied). */
  input: I;
  output: O;
  annotations: ToolAnnotations;
  /** Example arguments: shown in docs and `cli help`, and exercised by the contract tests. */
  examples: z.input<I>[];
  run(args: z.output<I>, ctx: ToolContext): Promise<z.input<O>>;
  /** A compact text rendering of a successful result (the text block next to structuredContent). */
  render(result: z.output<O>): string;
}

// deno-lint-ignore no-explicit-any
export type AnyToolDef = ToolDef<any, any>;

/** A content block a result carries besides its text block and outside structuredContent (MCP ImageContent). */
export interface ImageBlock {
  type: "image";
  /** Base64 of the bytes. */
  data: string;
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

/** Identity function that lets TypeScript infer I and O from the literal. */
export function defineTool<I extends z.ZodObject, O extends z.ZodObject>(def: ToolDef<I, O>): ToolDef<I, O> {
  return def;
}

export interface ResourceEntry {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
}

export interface ResourceContent {
  uri: string;
  mimeType?: string;
  text?: string;
  blob?: string;
}

/**
 * A fixed resource (`uri`) or a family of them (`uriTemplate`, RFC 6570 level 1: `{name}` segments).
 * `list` enumerates concrete instances where that makes sense (local PDFs); `read` serves one URI.
 */
export interface ResourceDef {
  toolset: ToolsetName;
  name: string;
  title?: string;
  description: string;
  mimeType: string;
  uri?: string;
  uriTemplate?: string;
  list?(ctx: ToolContext): Promise<ResourceEntry[]>;
  read(uri: string, params: Record<string, string>, ctx: ToolContext): Promise<ResourceContent[]>;
}
