/**
 * The command line: `list`, `help [tool]`, `call <tool> …`, `serve`, `version`. `call` builds the same
 * ToolContext as an MCP request (toolContext) and runs the same invokeTool, so validation, output checks
 * and error envelopes are identical. Exit codes: 0 success; 1 usage or configuration error, a permission
 * the command lacks, or a PDF that does not exist (search_pdf's `file_exists: false`); 2 tool error.
 */
import {
  type Config,
  ConfigError,
  loadConfig,
  readEnv,
  START_REFUSED_MARK,
  TOOLSET_NAMES,
  VERSION,
} from "../config.ts";
import type { ToolResult } from "../core/invoke.ts";
import { createLogger } from "../core/log.ts";
import { onDemand } from "../core/on_demand.ts";
import type { AnyToolDef } from "../tools/tool_def.ts";
import { checkEnvPermission, type Launch, preflight } from "../preflight.ts";
import { createRuntime, invokeShared, loadTool, type Runtime, toolContext } from "../runtime.ts";
import { protectStdout } from "../transports/stdio.ts";
import type { ProgressParams } from "./progress.ts";
import { runServe } from "./serve.ts";
import { UsageError } from "./usage_error.ts";
import { allToolDefs, lazyCatalogue, type ToolInfo } from "../lazy_catalog.ts";

type Help = typeof import("./help.ts");

export const EXIT_OK = 0;
export const EXIT_USAGE = 1;
export const EXIT_TOOL_ERROR = 2;

/** Where the CLI writes and how it builds its runtime (tests inject their own). */
export interface CliIo {
  /** Writes the result (JSON) to standard output. */
  stdout(text: string): void;
  /** Writes progress, logs and error lines to standard error. */
  stderr(text: string): void;
  /** A terminal gets a redrawn progress bar; anything else gets progress lines. */
  stderrIsTerminal: boolean;
  /** Builds the runtime for `list` and `call` (tests inject one; default: from the environment). */
  runtime(): Runtime;
  /** Checks that the permissions cover what calling `tool` needs (src/preflight.ts); throws ConfigError. */
  preflight?(tool: AnyToolDef, config: Config): void;
}

const encoder = new TextEncoder();

function processIo(): CliIo {
  return {
    stdout: (text) => writeAll(Deno.stdout, text),
    stderr: (text) => writeAll(Deno.stderr, text),
    stderrIsTerminal: Deno.stderr.isTerminal(),
    runtime: cliRuntime,
    preflight: (tool, config) => void preflight(config, readEnv(), callLaunch(tool)),
  };
}

/** The launch of this CLI run: a printed command repeats the call as given (its arguments shell-quoted). */
function callLaunch(tool?: AnyToolDef): Launch {
  const call = tool && Deno.args[0] === "call"
    ? Deno.args.map(shellWord).join(" ")
    : `call ${tool?.name ?? "<tool>"} …`;
  return {
    set: "cli",
    command: `deno run -q -P=cli{flags} {entry} ${call}`,
    toolsets: tool ? [tool.toolset] : [],
    ...(tool ? { tool: tool.name } : {}),
  };
}

/** One argument as a POSIX shell reads it back: bare when safe, else in single quotes. */
function shellWord(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", "'\\''")}'`;
}

/** The CLI logs warnings and errors only, unless MCP_LOG_LEVEL asks for more. */
function cliRuntime(): Runtime {
  checkEnvPermission(callLaunch());
  const env = readEnv();
  const config: Config = loadConfig(env);
  return createRuntime({ config, log: createLogger({ level: env.MCP_LOG_LEVEL ? config.logLevel : "warning" }) });
}

/**
 * The CLI's runtime with its upstream pipeline built at once, as before the server started importing it on
 * first use (src/upstreams/lazy.ts): a one-shot command checks every setting the pipeline reads (a bad
 * SCIENCE_MCP_KV stops it in one line) before it does anything.
 */
async function cliRuntimeWithPipeline(io: CliIo): Promise<Runtime> {
  await onDemand("upstreams/mod.ts");
  return io.runtime();
}

/** Runs one CLI command; returns the exit code. */
export async function runCli(argv: readonly string[], io: CliIo = processIo()): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case undefined:
      case "help":
      case "--help":
      case "-h":
        return await help(rest[0], io);
      case "version":
      case "--version":
        io.stdout(`science-mcp ${VERSION}\n`);
        return EXIT_OK;
      case "list":
        return await list(rest, io);
      case "call":
        return await call(rest, io);
      case "serve":
        return await runServe(rest);
      default:
        throw new UsageError(`Unknown command '${command}'. Commands: list, help, call, serve, version.`);
    }
  } catch (error) {
    if (error instanceof UsageError || error instanceof ConfigError) {
      io.stderr(`error: ${error.message}\n`);
      if (error instanceof UsageError) io.stderr(`Run 'deno task cli help' for usage.\n`);
      return EXIT_USAGE;
    }
    if (error instanceof Deno.errors.NotCapable) {
      io.stderr(
        `error: ${error.message} (the permission set of this command does not allow it; see README, Permissions)\n`,
      );
      return EXIT_USAGE;
    }
    throw error;
  }
}

// The commands other than `serve` import their helpers when they run, so that a server start does not.

async function help(name: string | undefined, io: CliIo): Promise<number> {
  const { toolHelp, USAGE } = await onDemand<Help>("cli/help.ts");
  if (name === undefined) {
    io.stdout(USAGE + "\n");
    return EXIT_OK;
  }
  io.stdout(toolHelp(findTool(await allToolDefs(), name)) + "\n");
  return EXIT_OK;
}

async function list(args: readonly string[], io: CliIo): Promise<number> {
  const unknown = args.filter((a) => a !== "--json");
  if (unknown.length) throw new UsageError(`Unexpected argument '${unknown[0]}' for list.`);
  const runtime = await cliRuntimeWithPipeline(io);
  const tools = runtime.catalogue.tools;
  if (args.includes("--json")) {
    const rows = tools.map((t) => ({ name: t.name, title: t.title, toolset: t.toolset, description: t.description }));
    io.stdout(JSON.stringify(rows, null, 2) + "\n");
  } else {
    const { toolList } = await onDemand<Help>("cli/help.ts");
    io.stdout(toolList(tools) + "\n");
  }
  return EXIT_OK;
}

async function call(args: readonly string[], io: CliIo): Promise<number> {
  const [name, ...rest] = args;
  if (!name) throw new UsageError("call needs a tool name: deno task cli call <tool> '<json args>'.");
  const runtime = await cliRuntimeWithPipeline(io);
  try {
    const [{ parseToolArgs }, { takeMaxChars }, { saveImage, takeOutOption }, { progressReporter }] = await Promise
      .all([
        onDemand<typeof import("./args.ts")>("cli/args.ts"),
        onDemand<typeof import("./max_chars.ts")>("cli/max_chars.ts"),
        onDemand<typeof import("./out_file.ts")>("cli/out_file.ts"),
        onDemand<typeof import("./progress.ts")>("cli/progress.ts"),
      ]);
    findTool(runtime.catalogue.tools, name);
    const loaded = await loadTool(runtime, name);
    if ("error" in loaded) {
      io.stdout(JSON.stringify({ error: loaded.error }, null, 2) + "\n");
      return EXIT_TOOL_ERROR;
    }
    const def = loaded.def!;
    io.preflight?.(def, runtime.deps.config);
    const { out, rest: afterOut } = takeOutOption(rest, Object.hasOwn(def.input.shape, "out"));
    const { maxChars, rest: flags } = takeMaxChars(afterOut, Object.hasOwn(def.input.shape, "max_chars"));
    const toolArgs = parseToolArgs(def, flags);
    const controller = new AbortController();
    const onSigint = () => controller.abort(new Error("interrupted (Ctrl-C)"));
    Deno.addSignalListener("SIGINT", onSigint);
    const bar = progressReporter(io.stderr, io.stderrIsTerminal);
    try {
      const ctx = toolContext(runtime, {
        signal: controller.signal,
        requestId: "cli",
        progressToken: "cli",
        ...(maxChars ? { outputBudget: maxChars } : {}),
        notify: (n) => Promise.resolve(bar.update(n.params as unknown as ProgressParams)),
      });
      const result = await invokeShared(runtime, def, toolArgs, ctx);
      bar.done();
      io.stdout(JSON.stringify(result.structuredContent, null, 2) + "\n");
      const saveError = await saveImage(result, out, io.stderr);
      if (saveError) io.stderr(`error: ${saveError}\n`);
      const missing = missingFile(result, runtime.deps.config);
      if (missing) io.stderr(`error: ${missing}\n`);
      return result.isError ? EXIT_TOOL_ERROR : saveError || missing ? EXIT_USAGE : EXIT_OK;
    } finally {
      Deno.removeSignalListener("SIGINT", onSigint);
    }
  } finally {
    await runtime.close();
  }
}

/**
 * A result that reports a file which is not there (`file_exists: false`, as search_pdf answers for an
 * unknown PDF name) succeeds for MCP, where a model reads it and calls list_pdfs; a script reads the exit
 * code, so the CLI makes it a failure.
 */
function missingFile(result: ToolResult, config: Config): string | undefined {
  const structured = result.structuredContent as { file_exists?: unknown } | undefined;
  if (result.isError || structured?.file_exists !== false) return undefined;
  return `no such PDF in PDF_ROOT (${config.pdf.root}); 'deno task cli call list_pdfs' lists the names`;
}

/** Looks a tool up by name; a miss is a usage error that says where to look. */
function findTool<T extends Pick<ToolInfo, "name">>(tools: readonly T[], name: string): T {
  const def = tools.find((t) => t.name === name);
  if (def) return def;
  const disabled = lazyCatalogue(TOOLSET_NAMES).tools.find((t) => t.name === name);
  if (disabled) {
    throw new UsageError(`Tool '${name}' is in the ${disabled.toolset} toolset, which SCIENCE_MCP_TOOLSETS disables.`);
  }
  const near = tools.filter((t) => t.name.includes(name) || name.includes(t.name)).map((t) => t.name);
  throw new UsageError(
    `Unknown tool '${name}'.${near.length ? ` Did you mean ${near.join(", ")}?` : ""} Run 'deno task cli list'.`,
  );
}

function writeAll(target: { writeSync(p: Uint8Array): number }, text: string): void {
  const bytes = encoder.encode(text);
  for (let done = 0; done < bytes.length;) done += target.writeSync(bytes.subarray(done));
}

/**
 * Under `deno serve --parallel` every worker isolate runs the start check at once, and each would print
 * the same line before the first exit ends the process. The environment is the one thing the isolates
 * share: each leaves its token there, waits a moment, and only the isolate whose token stayed speaks (the
 * others wait for its exit, and exit silently if it never comes). Without the permission, every isolate speaks.
 */
function firstToRefuse(): boolean {
  if (Deno.permissions.querySync({ name: "env", variable: START_REFUSED_MARK }).state !== "granted") return true;
  // A mark inherited from another process (its pid differs) is not a sibling's.
  if (Deno.env.get(START_REFUSED_MARK)?.startsWith(`${Deno.pid}:`)) return pause(10_000), false;
  const token = `${Deno.pid}:${crypto.randomUUID()}`;
  Deno.env.set(START_REFUSED_MARK, token);
  pause(30);
  if (Deno.env.get(START_REFUSED_MARK) === token) return true;
  return pause(10_000), false;
}

/** Blocks this isolate, not the process: the speaking isolate's exit ends both. */
function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * For entry points outside the CLI (serve.ts under `deno serve`): an operator's mistake (a setting, a
 * permission) prints one line and exits 1 instead of a stack trace.
 */
export function exitOnOperatorError<T>(start: () => T): T {
  try {
    return start();
  } catch (error) {
    if (!(error instanceof ConfigError || error instanceof Deno.errors.NotCapable)) throw error;
    if (firstToRefuse()) console.error(`error: ${error.message}`);
    Deno.exit(EXIT_USAGE);
  }
}

/** Process entry: `deno run mod.ts <command>`. */
export async function main(argv: readonly string[] = Deno.args): Promise<number> {
  protectStdout();
  return await runCli(argv);
}
