/** Subprocess helpers for the operator tests: run a command as an operator would, read what they would read. */
import { childEnv, ROOT } from "../e2e/helpers.ts";

export { childEnv, ROOT };

export interface Outcome {
  code: number;
  stdout: string;
  /** stderr without Deno's own lines (`Task …`, the experimental-permissions warning); NO_COLOR is set. */
  stderr: string;
}

/** Runs `deno <args>` (stdin closed) and collects its output; killed after `timeoutMs`, so a regression cannot hang. */
export async function run(
  args: string[],
  options: { env?: Record<string, string>; cwd?: string; timeoutMs?: number } = {},
): Promise<Outcome> {
  const output = await new Deno.Command(Deno.execPath(), {
    args,
    cwd: options.cwd ?? ROOT,
    env: childEnv(options.env),
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(options.timeoutMs ?? 60_000),
  }).output();
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { code: output.code, stdout: decode(output.stdout), stderr: operatorText(decode(output.stderr)) };
}

function operatorText(stderr: string): string {
  return stderr.split("\n")
    .filter((line) => !/^(Task \S+ |Warning Permissions in the config file)/.test(line))
    .join("\n").trim();
}

/** The JSON log lines of stderr, parsed; the other lines as they are. */
export function splitStderr(stderr: string): { logs: Record<string, unknown>[]; other: string[] } {
  const logs: Record<string, unknown>[] = [];
  const other: string[] = [];
  for (const line of stderr.split("\n").filter(Boolean)) {
    try {
      logs.push(JSON.parse(line));
    } catch {
      other.push(line);
    }
  }
  return { logs, other };
}

/** The argv of a `deno task` of deno.json, without the leading `deno` (tasks here are single commands). */
export async function taskArgs(name: string): Promise<string[]> {
  const tasks = JSON.parse(await Deno.readTextFile(`${ROOT}deno.json`)).tasks as Record<string, string>;
  const [deno, ...args] = tasks[name].split(" ");
  if (deno !== "deno") throw new Error(`task ${name} is not a single deno command`);
  return args;
}

/** The command a one-line start error tells the operator to run, as argv without `deno`. */
export function suggestedCommand(line: string): string[] {
  const command = line.match(/start it with: (.+)$/)?.[1];
  if (!command) throw new Error(`no command in: ${line}`);
  const [deno, ...args] = command.split(" ");
  if (deno !== "deno") throw new Error(`not a deno command: ${command}`);
  return args;
}

export function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}
