/**
 * Runs the official MCP conformance suite (`@modelcontextprotocol/conformance`, server scenarios, suite
 * `all`) against our Streamable HTTP server, started in this process on a free loopback port with the
 * TEST-ONLY fixtures (tests/conformance/fixtures.ts). The fixtures are imported from a path computed at
 * run time, only here: no production entry point refers to them, so no binary or bundle contains them.
 *
 * Usage: `deno task conformance [--scenario <name>] [--verbose]`. Prints the suite's output and ends with
 * its `Total: N passed, M failed` line; exits 0 only when nothing failed.
 */
import { loadConfig } from "../src/config.ts";
import { createRuntime } from "../src/runtime.ts";
import type { ServerExtension } from "../src/server.ts";
import { startHttpServer } from "../src/transports/http_server.ts";

export const CONFORMANCE_PACKAGE = "npm:@modelcontextprotocol/conformance@0.1.16";
/** Checks the suite counts as passed against a server that implements every fixture (no resumability). */
export const EXPECTED_PASSED = 44;

export interface ConformanceResult {
  passed: number;
  failed: number;
  output: string;
  code: number;
}

async function loadFixtures(): Promise<ServerExtension> {
  const path = ["..", "tests", "conformance", "fixtures.ts"].join("/");
  const module = await import(new URL(path, import.meta.url).href);
  return module.conformanceExtension as ServerExtension;
}

export async function runConformance(
  options: { scenario?: string; verbose?: boolean; echo?: boolean } = {},
): Promise<ConformanceResult> {
  const config = loadConfig({ MCP_AUTH_MODE: "none", MCP_HTTP_HOST: "127.0.0.1", MCP_LOG_LEVEL: "warning" });
  const runtime = createRuntime({ config });
  const server = startHttpServer(runtime, { port: 0, extension: await loadFixtures(), graceMs: 1000 });
  try {
    const target = options.scenario ? ["--scenario", options.scenario] : ["--suite", "all"];
    const command = new Deno.Command(Deno.execPath(), {
      // --no-config/--no-lock: the suite's own dependencies stay out of deno.lock and node_modules.
      args: [
        "run",
        "-A",
        "--no-config",
        "--no-lock",
        CONFORMANCE_PACKAGE,
        "server",
        "--url",
        `${server.url}/mcp`,
        ...target,
        ...(options.verbose ? ["--verbose"] : []),
      ],
      env: { NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    });
    const { code, stdout, stderr } = await command.output();
    const output = new TextDecoder().decode(stdout) + new TextDecoder().decode(stderr);
    if (options.echo) console.log(output);
    const totals = /Total: (\d+) passed, (\d+) failed/.exec(output) ??
      /Passed: (\d+)\/\d+, (\d+) failed/.exec(output);
    return {
      passed: totals ? Number(totals[1]) : 0,
      failed: totals ? Number(totals[2]) : 1,
      output,
      code,
    };
  } finally {
    await server.shutdown();
  }
}

if (import.meta.main) {
  const scenarioAt = Deno.args.indexOf("--scenario");
  const result = await runConformance({
    scenario: scenarioAt >= 0 ? Deno.args[scenarioAt + 1] : undefined,
    verbose: Deno.args.includes("--verbose"),
    echo: true,
  });
  console.log(`conformance: ${result.passed} passed, ${result.failed} failed (expected ${EXPECTED_PASSED} passed)`);
  Deno.exit(result.failed === 0 && result.code === 0 ? 0 : 1);
}
