/**
 * The fault matrix: every network tool of the catalogue (openWorldHint) × every fault a real upstream
 * throws at us, through the real runtime and MCP server against the mock upstream. Each case must end in
 * a specific error envelope (or, for transient faults, the un-faulted result after paced retries), never
 * an empty success, with no unhandled rejection, while the server keeps serving other calls.
 *
 * Usage: `deno run -A scripts/fault_matrix.ts [--quick] [--tool NAME]... [--fault ID]... [--concurrency N]
 * [--json FILE]`. Exits 1 when any case fails or a rejection went unhandled. Nothing leaves the process:
 * the mock upstream answers in process, on simulated time (see fault_matrix/harness.ts).
 */
import { type MatrixOptions, type MatrixReport, runFaultMatrix } from "./fault_matrix/run.ts";
import { formatMatrix, formatSummary } from "./fault_matrix/table.ts";

export { type MatrixOptions, type MatrixReport, runFaultMatrix };
export { formatMatrix, formatSummary };

const MIB = 1024 ** 2;

/** The CI variant: smaller bodies (and a smaller size cap), same faults, same checks. */
export const QUICK: MatrixOptions = {
  maxBytes: 32 * MIB,
  timing: { oversizeBytes: 40 * MIB, junkBytes: 8 * MIB },
};

function parseArgs(args: string[]): { options: MatrixOptions; json?: string } {
  const options: MatrixOptions = {};
  const tools: string[] = [];
  const faults: string[] = [];
  let json: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    const value = () => {
      const v = args[++i];
      if (v === undefined) throw new Error(`${arg} needs a value`);
      return v;
    };
    if (arg === "--quick") Object.assign(options, QUICK);
    else if (arg === "--tool") tools.push(value());
    else if (arg === "--fault") faults.push(value());
    else if (arg === "--concurrency") options.concurrency = Number(value());
    else if (arg === "--json") json = value();
    else {throw new Error(
        `unknown argument ${arg}; use --quick, --tool NAME, --fault ID, --concurrency N, --json FILE`,
      );}
  }
  if (tools.length) options.tools = tools;
  if (faults.length) options.faults = faults;
  return { options, json };
}

if (import.meta.main) {
  const { options, json } = parseArgs(Deno.args);
  let done = 0;
  const report = await runFaultMatrix({
    ...options,
    onCase: (c) => {
      done++;
      if (c.grade !== "pass") console.error(`[${done}] ${c.grade} ${c.tool} × ${c.fault}: ${c.problem}`);
      else if (done % 25 === 0) console.error(`[${done}] cases done`);
    },
  });
  console.log(formatMatrix(report));
  console.log();
  console.log(formatSummary(report));
  if (json) await Deno.writeTextFile(json, JSON.stringify(report, null, 2));
  const failed = report.cases.some((c) => c.grade === "fail") || report.unhandledRejections.length > 0;
  Deno.exit(failed ? 1 : 0);
}
