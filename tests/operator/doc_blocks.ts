/**
 * The command blocks of README.md and docs/, and how the tests run them: as written, through `sh`, in the
 * project folder. A block's server runs in a process group of its own, so stopping it stops `deno task`'s
 * children too. Blocks that name the fixed ports 3010/3011 run one at a time across every checkout on this
 * machine (an exclusive file lock), since other test runs may run the same blocks in parallel.
 */
import { ROOT } from "../e2e/helpers.ts";
import { childEnv } from "./helpers.ts";

export interface DocBlock {
  /** `README.md` or `docs/<name>.md`. */
  file: string;
  /** The nearest heading above the block. */
  section: string;
  /** 1-based among the blocks of that section. */
  n: number;
  lang: string;
  body: string;
  /** `file › section #n`: how the coverage table names it. */
  id: string;
}

/** Every fenced block of a Markdown file, with the heading it sits under. */
export function docBlocks(file: string): DocBlock[] {
  const text = Deno.readTextFileSync(`${ROOT}${file}`);
  const blocks: DocBlock[] = [];
  let section = "";
  const counts = new Map<string, number>();
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const heading = /^#{1,4} (.+)$/.exec(lines[i]);
    if (heading) {
      section = heading[1].trim();
      continue;
    }
    const fence = /^```(\w*)\s*$/.exec(lines[i]);
    if (!fence) continue;
    const body: string[] = [];
    for (i++; i < lines.length && lines[i] !== "```"; i++) body.push(lines[i]);
    const n = (counts.get(section) ?? 0) + 1;
    counts.set(section, n);
    blocks.push({ file, section, n, lang: fence[1], body: body.join("\n"), id: `${file} › ${section} #${n}` });
  }
  return blocks;
}

/** The one block with this id; fails when the docs moved it (update the coverage table with them). */
export function block(blocks: DocBlock[], id: string): DocBlock {
  const found = blocks.find((b) => b.id === id);
  if (!found) throw new Error(`no block ${id}: ${blocks.map((b) => b.id).join("; ")}`);
  return found;
}

/** The block's command lines: comments and blank lines dropped, `\` continuations joined. */
export function commandLines(body: string): string[] {
  return body.replace(/\\\n\s*/g, "").split("\n").map((l) => l.trim()).filter((l) => l && !l.startsWith("#"));
}

export interface Shell {
  /** Resolves when `sh` ends (a server in the foreground: when it is stopped), with what it printed so far. */
  output: Promise<{ code: number; stdout: string; stderr: string }>;
  /** Stops the script and everything it started (its process group). */
  stop(): Promise<void>;
}

/** Runs `script` with `sh -e` in the project folder, in a process group of its own. */
export function shell(script: string, env: Record<string, string> = {}, cwd = ROOT): Shell {
  const child = new Deno.Command("setsid", {
    args: ["sh", "-e", "-c", script],
    cwd,
    env: childEnv({ PWD: cwd.replace(/\/$/, ""), ...env }),
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const text = { stdout: "", stderr: "" };
  const drain = (stream: ReadableStream<Uint8Array>, key: "stdout" | "stderr") =>
    stream.pipeThrough(new TextDecoderStream()).pipeTo(
      new WritableStream({ write: (chunk) => void (text[key] += chunk) }),
    ).catch(() => {});
  const drained = Promise.all([drain(child.stdout, "stdout"), drain(child.stderr, "stderr")]);
  // Background children of the script may hold the pipes open after sh ends: do not wait for them.
  const output = child.status.then(async (status) => {
    await Promise.race([drained, new Promise((r) => setTimeout(r, 500))]);
    return { code: status.code, ...text };
  });
  const killGroup = (signal: Deno.Signal) => {
    try {
      Deno.kill(-child.pid, signal);
    } catch {
      // Gone.
    }
  };
  return {
    output,
    async stop() {
      killGroup("SIGTERM");
      const timer = setTimeout(() => killGroup("SIGKILL"), 15_000);
      await child.status;
      clearTimeout(timer);
      // A child that ignores SIGTERM must not outlive the test either.
      await new Promise((r) => setTimeout(r, 200));
      killGroup("SIGKILL");
      await drained;
    },
  };
}

/** Runs a script to its end (killed after `timeoutMs`), then stops whatever it left running. */
export async function runScript(
  script: string,
  env: Record<string, string> = {},
  timeoutMs = 120_000,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const sh = shell(script, env);
  const timer = setTimeout(() => sh.stop(), timeoutMs);
  try {
    return await sh.output;
  } finally {
    clearTimeout(timer);
    await sh.stop();
  }
}

const FIXED_PORTS = [3010, 3011];
const LOCK_FILE = "/tmp/science-mcp-readme-fixed-ports.lock";

/**
 * Runs `fn` holding the machine-wide lock of the fixed README ports, once they are free. The lock is an
 * flock: released when this process ends, however it ends.
 */
export async function withFixedPorts<T>(fn: () => Promise<T>): Promise<T> {
  const file = await Deno.open(LOCK_FILE, { create: true, write: true });
  await file.lock(true);
  try {
    const deadline = Date.now() + 120_000;
    while (!FIXED_PORTS.every(portFree)) {
      if (Date.now() > deadline) throw new Error(`ports ${FIXED_PORTS.join(", ")} stay in use outside the tests`);
      await new Promise((r) => setTimeout(r, 500));
    }
    return await fn();
  } finally {
    await file.unlock();
    file.close();
  }
}

function portFree(port: number): boolean {
  try {
    Deno.listen({ hostname: "127.0.0.1", port }).close();
    return true;
  } catch {
    return false;
  }
}

/** One MCP 2026-07-28 request (no session): what curl sends in the README, from the test. */
export async function modernCall(
  base: string,
  token: string | undefined,
  method: string,
  params: Record<string, unknown> = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  const name: Record<string, string> = typeof params.name === "string" ? { "mcp-name": params.name } : {};
  const response = await fetch(`${base}/mcp`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": method,
      ...name,
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method,
      params: {
        ...params,
        _meta: {
          "io.modelcontextprotocol/protocolVersion": "2026-07-28",
          "io.modelcontextprotocol/clientCapabilities": {},
        },
      },
    }),
  });
  const text = await response.text();
  const data = text.startsWith("{") ? text : text.split("\n").find((l) => l.startsWith("data: "))?.slice(6) ?? "{}";
  return { status: response.status, body: JSON.parse(data) };
}
