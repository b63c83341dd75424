/**
 * Runs the official MCP conformance suites against our Streamable HTTP server, started in this process on
 * a free loopback port with the TEST-ONLY fixtures (tests/conformance/fixtures.ts):
 * - `@modelcontextprotocol/conformance@0.1.16`, `server --suite all` (2025-11-25 scenarios);
 * - `@modelcontextprotocol/conformance@0.2.0-alpha.12`, the frozen requirement sets of 2026-07-28 and
 *   2025-11-25 (`--requirements`), scenarios the set marks "not scored" left out of the count.
 * The fixtures are imported from a path computed at run time, only here: no production entry point
 * refers to them, so no binary or bundle contains them.
 *
 * Usage: `deno task conformance [--scenario <name>] [--verbose]`. Prints each suite's output and ends
 * with one line per run, `conformance <suite version> <era>: P/T scenarios passed`; exits 0 only when
 * every run passed completely.
 */
import { loadConfig } from "../src/config.ts";
import { createRuntime } from "../src/runtime.ts";
import type { ServerExtension } from "../src/server.ts";
import { startHttpServer } from "../src/transports/http_server.ts";

export interface ConformanceRun {
  /** Suite version, e.g. `0.2.0-alpha.12`. */
  suite: string;
  /** Protocol revision the run checks. */
  era: "2025-11-25" | "2026-07-28";
  /** How the suite selects its scenarios. */
  select: string[];
  /** Scored scenarios a complete run has; fewer means the suite skipped or crashed. */
  expected: number;
}

export const RUNS: readonly ConformanceRun[] = [
  { suite: "0.1.16", era: "2025-11-25", select: ["--suite", "all"], expected: 32 },
  { suite: "0.2.0-alpha.12", era: "2026-07-28", select: ["--requirements", "2026-07-28"], expected: 37 },
  { suite: "0.2.0-alpha.12", era: "2025-11-25", select: ["--requirements", "2025-11-25"], expected: 30 },
];

export interface ScenarioOutcome {
  name: string;
  passed: boolean;
}

export interface ConformanceResult {
  run: ConformanceRun;
  /** Scored scenarios (the summary minus the ones the requirement set does not score). */
  scenarios: ScenarioOutcome[];
  output: string;
  code: number;
}

async function loadFixtures(): Promise<ServerExtension> {
  const path = ["..", "tests", "conformance", "fixtures.ts"].join("/");
  const module = await import(new URL(path, import.meta.url).href);
  return module.conformanceExtension as ServerExtension;
}

/**
 * The scored scenarios of a suite's output: the `✓|✗ name: P passed, F failed` lines of its summary,
 * without the ones listed under "Not scored for …" (extensions and pending scenarios).
 */
export function scoredScenarios(output: string): ScenarioOutcome[] {
  const summary = output.slice(output.lastIndexOf("=== SUMMARY ==="));
  const unscored = new Set<string>();
  const notScoredAt = summary.indexOf("Not scored for");
  if (notScoredAt >= 0) {
    for (const match of summary.slice(notScoredAt).matchAll(/^\s+[✓✗] (\S+) \(/gmu)) unscored.add(match[1]);
  }
  const scenarios: ScenarioOutcome[] = [];
  for (const match of summary.matchAll(/^([✓✗]) (\S+): (\d+) passed, (\d+) failed/gmu)) {
    if (unscored.has(match[2])) continue;
    scenarios.push({ name: match[2], passed: match[1] === "✓" && match[4] === "0" });
  }
  return scenarios;
}

export function summaryLine(result: ConformanceResult): string {
  const passed = result.scenarios.filter((s) => s.passed).length;
  return `conformance ${result.run.suite} ${result.run.era}: ${passed}/${result.scenarios.length} scenarios passed`;
}

/** True when the run passed every scenario it should have run. */
export function complete(result: ConformanceResult): boolean {
  return result.code === 0 && result.scenarios.length === result.run.expected &&
    result.scenarios.every((s) => s.passed);
}

async function runSuite(run: ConformanceRun, url: string, options: { scenario?: string; verbose?: boolean }) {
  const target = options.scenario
    ? ["--scenario", options.scenario, ...(run.suite === "0.1.16" ? [] : ["--spec-version", run.era])]
    : run.select;
  const command = new Deno.Command(Deno.execPath(), {
    // --no-config/--no-lock: the suite's own dependencies stay out of deno.lock and node_modules.
    args: [
      "run",
      "-A",
      "--no-config",
      "--no-lock",
      `npm:@modelcontextprotocol/conformance@${run.suite}`,
      "server",
      "--url",
      url,
      ...target,
      ...(options.verbose ? ["--verbose"] : []),
    ],
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  });
  const { code, stdout, stderr } = await command.output();
  return { code, output: new TextDecoder().decode(stdout) + new TextDecoder().decode(stderr) };
}

export async function runConformance(
  options: { scenario?: string; verbose?: boolean; echo?: boolean; runs?: readonly ConformanceRun[] } = {},
): Promise<ConformanceResult[]> {
  const config = loadConfig({ MCP_AUTH_MODE: "none", MCP_HTTP_HOST: "127.0.0.1", MCP_LOG_LEVEL: "warning" });
  const runtime = createRuntime({ config });
  const server = startHttpServer(runtime, { port: 0, extension: await loadFixtures(), graceMs: 1000 });
  const results: ConformanceResult[] = [];
  try {
    for (const run of options.runs ?? RUNS) {
      const { code, output } = await runSuite(run, `${server.url}/mcp`, options);
      if (options.echo) console.log(output);
      results.push({ run, scenarios: scoredScenarios(output), output, code });
    }
    return results;
  } finally {
    await server.shutdown();
  }
}

if (import.meta.main) {
  const scenarioAt = Deno.args.indexOf("--scenario");
  const scenario = scenarioAt >= 0 ? Deno.args[scenarioAt + 1] : undefined;
  const results = await runConformance({ scenario, verbose: Deno.args.includes("--verbose"), echo: true });
  for (const result of results) console.log(summaryLine(result));
  const ok = scenario
    ? results.every((r) => r.code === 0 && r.scenarios.every((s) => s.passed))
    : results.every(complete);
  Deno.exit(ok ? 0 : 1);
}
