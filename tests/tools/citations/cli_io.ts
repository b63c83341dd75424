/** Runs a CLI `call` against a harness runtime (the mock upstream), driving its clock: what a shell user sees. */
import { type CliIo, runCli } from "../../../src/cli/main.ts";
import { drive, type ToolHarness } from "../../helpers/tool_harness.ts";

export async function cliCall(
  h: ToolHarness,
  tool: string,
  args: Record<string, unknown>,
): Promise<{ code: number; out: string; err: string }> {
  const captured = { out: "", err: "" };
  const io: CliIo = {
    stdout: (text: string) => void (captured.out += text),
    stderr: (text: string) => void (captured.err += text),
    stderrIsTerminal: false,
    runtime: () => h.runtime,
  };
  const code = await drive(h.clock, runCli(["call", tool, JSON.stringify(args)], io));
  return { code, ...captured };
}
