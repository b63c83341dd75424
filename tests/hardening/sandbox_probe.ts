/**
 * Run under a permission set of deno.json (`deno run -P=<set> tests/hardening/sandbox_probe.ts '<json>'`):
 * tries each operation it is given and prints one JSON line per attempt: whether it succeeded or the
 * error's class. permission_sandbox_test.ts checks the verdicts against what the set must allow.
 * Network attempts only ever target loopback, and a refused permission stops them before any connection.
 */

export type Attempt =
  | { op: "read"; path: string }
  | { op: "readDir"; path: string }
  | { op: "write"; path: string }
  | { op: "mkdir"; path: string }
  | { op: "remove"; path: string }
  | { op: "env"; name: string }
  | { op: "envAll" }
  | { op: "fetch"; url: string }
  | { op: "listen"; port: number }
  | { op: "run"; command: string }
  | { op: "sys" };

export interface Verdict {
  attempt: Attempt;
  ok: boolean;
  /** Error class name when it failed (NotCapable = refused by the permission set), with its cause's. */
  error?: string;
  message?: string;
}

async function attempt(a: Attempt): Promise<void> {
  switch (a.op) {
    case "read":
      await Deno.readFile(a.path);
      return;
    case "readDir":
      for await (const _ of Deno.readDir(a.path)) break;
      return;
    case "write":
      await Deno.writeTextFile(a.path, "sandbox probe\n");
      return;
    case "mkdir":
      await Deno.mkdir(a.path, { recursive: true });
      return;
    case "remove":
      await Deno.remove(a.path);
      return;
    case "env":
      Deno.env.get(a.name);
      return;
    case "envAll":
      Deno.env.toObject();
      return;
    case "fetch": {
      if (!/^https?:\/\/(127\.0\.0\.1|localhost|\[::1\])[:/]/.test(a.url)) {
        throw new Error("probe fetches loopback only");
      }
      // Only a guard against hanging: a granted loopback answers long before, however busy the machine.
      const response = await fetch(a.url, { signal: AbortSignal.timeout(60_000) });
      await response.body?.cancel();
      return;
    }
    case "listen":
      Deno.listen({ hostname: "127.0.0.1", port: a.port }).close();
      return;
    case "run":
      await new Deno.Command(a.command).output();
      return;
    case "sys":
      Deno.hostname();
      return;
  }
}

/** `NotCapable`, or `TypeError(NotCapable)` when fetch wraps the refusal. */
function errorClass(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? `(${error.cause.constructor.name})` : "";
  return `${error.constructor.name}${cause}`;
}

if (import.meta.main) {
  const attempts = JSON.parse(Deno.args[0] ?? "[]") as Attempt[];
  for (const a of attempts) {
    let verdict: Verdict;
    try {
      await attempt(a);
      verdict = { attempt: a, ok: true };
    } catch (error) {
      verdict = { attempt: a, ok: false, error: errorClass(error), message: String(error).slice(0, 300) };
    }
    console.log(JSON.stringify(verdict));
  }
}
