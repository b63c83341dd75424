/**
 * Runs the matrix: a baseline per network tool (its first example, un-faulted), then every (tool ×
 * fault) case in its own world, a few at a time. While the faulted call is struggling, a healthy call
 * to an unrelated upstream and a local tool call run on the same server: both must succeed, and the
 * server must still answer tools/list afterwards. Unhandled rejections are counted for the whole run.
 */
import { ALL_TOOLS } from "../../src/catalog.ts";
import type { AnyToolDef } from "../../src/tools/tool_def.ts";
import type { Env } from "../../src/config.ts";
import type { MockPrefix } from "../mock_routes/types.ts";
import { type FaultCase, faultCases, type FaultTiming, rewrittenRoutes } from "./faults.ts";
import { type CallOutcome, openWorld, prefixesHit, upstreamsOf } from "./harness.ts";
import { errorOf, type Grade, judge } from "./verdict.ts";

export interface MatrixOptions {
  /** Only tools whose name is listed (default: every network tool of the catalogue). */
  tools?: readonly string[];
  /** Only faults whose id is listed. */
  faults?: readonly string[];
  /** Cases run at once (default 4). */
  concurrency?: number;
  timing?: Partial<FaultTiming>;
  /** UPSTREAM_MAX_BYTES for every world (default: the config default, 50 MiB). */
  maxBytes?: number;
  onCase?: (result: CaseResult) => void;
}

export interface Baseline {
  tool: string;
  /** Index of the example used: the first that reaches an upstream. */
  example: number;
  outcome: CallOutcome;
  prefixes: MockPrefix[];
  requests: number;
}

export interface CaseResult {
  tool: string;
  fault: string;
  grade: Grade;
  cell: string;
  problem?: string;
  /** Requests the faulted world's mock received (faulted call, retries and the healthy calls). */
  requests: number;
  ms: number;
  /** Whether the interleaved healthy calls and the final tools/list succeeded. */
  served: boolean;
  /** structuredContent of the faulted call, kept for cases that did not plainly pass (see --json). */
  result?: unknown;
}

export interface MatrixReport {
  faults: FaultCase[];
  baselines: Baseline[];
  cases: CaseResult[];
  unhandledRejections: string[];
  seconds: number;
  settings: { concurrency: number; timing: FaultTiming; env: Env };
}

const MIB = 1024 ** 2;

export async function runFaultMatrix(options: MatrixOptions = {}): Promise<MatrixReport> {
  const started = performance.now();
  const concurrency = options.concurrency ?? 4;
  const timing: FaultTiming = { timeoutMs: 30_000, oversizeBytes: 64 * MIB, junkBytes: 24 * MIB, ...options.timing };
  const env: Env = {
    UPSTREAM_TIMEOUT_MS: String(timing.timeoutMs),
    ...(options.maxBytes ? { UPSTREAM_MAX_BYTES: String(options.maxBytes) } : {}),
  };
  const faults = faultCases(timing).filter((f) => !options.faults || options.faults.includes(f.id));
  const unhandled: string[] = [];
  const onUnhandled = (event: PromiseRejectionEvent) => {
    event.preventDefault();
    unhandled.push(String(event.reason?.stack ?? event.reason));
  };
  globalThis.addEventListener("unhandledrejection", onUnhandled);
  try {
    const network = ALL_TOOLS.filter((t) =>
      t.annotations.openWorldHint && t.examples.length > 0 && (!options.tools || options.tools.includes(t.name))
    );
    const baselines = await pool(network, concurrency, (def) => baseline(def, env));
    const local = await localSentinel(env);
    const jobs = baselines.filter((b) => b.prefixes.length > 0).flatMap((b) => faults.map((f) => ({ b, f })));
    const cases = await pool(jobs, concurrency, async ({ b, f }) => {
      const sentinel = pickSentinel(b, baselines);
      const result = await runCase(b, f, { env, sentinel, local });
      options.onCase?.(result);
      return result;
    });
    return {
      faults,
      baselines,
      cases,
      unhandledRejections: unhandled,
      seconds: (performance.now() - started) / 1000,
      settings: { concurrency, timing, env },
    };
  } finally {
    globalThis.removeEventListener("unhandledrejection", onUnhandled);
  }
}

/**
 * The tool's first example that reaches an upstream, run un-faulted (some first examples are answered
 * locally, e.g. list_categories for arXiv; a later one then exercises the network path).
 */
async function baseline(def: AnyToolDef, env: Env): Promise<Baseline> {
  let first: Baseline | undefined;
  for (const [i, args] of def.examples.entries()) {
    const world = await openWorld({ env });
    try {
      const outcome = await world.call(def.name, args);
      const b = {
        tool: def.name,
        example: i,
        outcome,
        prefixes: prefixesHit(world.mock),
        requests: world.mock.requests.length,
      };
      if (b.prefixes.length > 0) return b;
      first ??= b;
    } finally {
      await world.close();
    }
  }
  return first!;
}

/** A tool that makes no upstream request and whose example succeeds: it must keep working during faults. */
async function localSentinel(env: Env): Promise<AnyToolDef | undefined> {
  for (const def of ALL_TOOLS.filter((t) => !t.annotations.openWorldHint && t.examples.length > 0)) {
    const world = await openWorld({ env });
    try {
      const outcome = await world.call(def.name, def.examples[0]);
      if (!outcome.isError && world.mock.requests.length === 0) return def;
    } finally {
      await world.close();
    }
  }
  return undefined;
}

/** The cheapest healthy network tool whose upstreams share nothing with the faulted tool's. */
function pickSentinel(target: Baseline, all: Baseline[]): Baseline | undefined {
  const busy = upstreamsOf(target.prefixes);
  return all
    .filter((b) =>
      !b.outcome.isError && b.prefixes.length > 0 && ![...upstreamsOf(b.prefixes)].some((u) => busy.has(u))
    )
    .sort((a, b) => a.requests - b.requests)[0];
}

interface CaseContext {
  env: Env;
  sentinel?: Baseline;
  local?: AnyToolDef;
}

async function runCase(b: Baseline, fault: FaultCase, ctx: CaseContext): Promise<CaseResult> {
  const world = await openWorld({
    env: ctx.env,
    routes: fault.rewrite ? rewrittenRoutes(b.prefixes, fault.rewrite) : undefined,
  });
  try {
    if (fault.spec) {
      for (const prefix of b.prefixes) world.mock.setFault(prefix, fault.spec, { times: fault.times });
    }
    const faulted = world.call(b.tool, exampleOf(b));
    const healthy: Promise<string | undefined>[] = [];
    const s = ctx.sentinel;
    if (s) healthy.push(world.call(s.tool, exampleOf(s)).then((o) => failure(`${s.tool} (healthy upstream)`, o)));
    const local = ctx.local;
    if (local) healthy.push(world.call(local.name, local.examples[0]).then((o) => failure(local.name, o)));
    const outcome = await faulted;
    const problems = (await Promise.all(healthy)).filter(Boolean);
    try {
      await world.listTools();
    } catch (error) {
      problems.push(`tools/list after the fault: ${error}`);
    }
    const verdict = judge(fault, outcome, b.outcome);
    const served = problems.length === 0;
    const problem = [verdict.problem, ...problems.map((p) => `server stopped serving: ${p}`)].filter(Boolean);
    return {
      tool: b.tool,
      fault: fault.id,
      grade: served ? verdict.grade : "fail",
      cell: verdict.cell,
      problem: problem.length ? problem.join("; ") : undefined,
      requests: world.mock.requests.length,
      ms: outcome.ms,
      served,
      ...(verdict.grade === "pass" && served ? {} : { result: outcome.structured ?? outcome.thrown }),
    };
  } finally {
    await world.close();
  }
}

function exampleOf(b: Baseline): unknown {
  return ALL_TOOLS.find((t) => t.name === b.tool)!.examples[b.example];
}

function failure(what: string, outcome: CallOutcome): string | undefined {
  if (!outcome.isError) return undefined;
  return `${what} failed: ${outcome.thrown ?? errorOf(outcome)?.message ?? "error"}`;
}

/** Maps `items` through `work`, at most `limit` at a time, keeping order. */
async function pool<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await work(items[i]);
    }
  });
  await Promise.all(lanes);
  return out;
}
