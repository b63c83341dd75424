/**
 * A real server over stdio for the PDF benchmarks (`deno run -P=stdio main.ts serve`, PDF_ROOT and the
 * disk cache given), spoken to in raw JSON-RPC lines (no SDK client in the timing), with the CPU time and
 * memory of the server and its extractor processes read from /proc. Not a `*_bench.ts` file.
 */
import { join } from "node:path";

export const REPO = decodeURIComponent(new URL("..", import.meta.url).pathname);

/** A server over stdio, spoken to in raw JSON-RPC lines (no SDK client in the timing). */
export class StdioServer {
  readonly #child: Deno.ChildProcess;
  readonly #writer: WritableStreamDefaultWriter<Uint8Array>;
  readonly #pending = new Map<number, (message: Record<string, unknown>) => void>();
  #nextId = 1;
  #exited?: string;

  constructor(root: string, cacheDir?: string, env: Record<string, string> = {}) {
    // --allow-read replaces the set's read list: src/ (toolsets, extractor and parse workers) must stay readable.
    const read = [root, join(REPO, "src"), ...(cacheDir ? [cacheDir] : [])].join(",");
    this.#child = new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-P=stdio",
        `--allow-read=${read}`,
        ...(cacheDir ? [`--allow-write=${cacheDir}`] : []),
        "main.ts",
        "serve",
        "--transport",
        "stdio",
      ],
      cwd: REPO,
      env: { PDF_ROOT: root, MCP_LOG_LEVEL: "error", ...(cacheDir ? { SCIENCE_MCP_CACHE_DIR: cacheDir } : {}), ...env },
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    this.#writer = this.#child.stdin.getWriter();
    this.#read();
    this.#watchExit();
  }

  async #read(): Promise<void> {
    let buffer = "";
    for await (const chunk of this.#child.stdout.pipeThrough(new TextDecoderStream())) {
      buffer += chunk;
      for (let at = buffer.indexOf("\n"); at >= 0; at = buffer.indexOf("\n")) {
        const line = buffer.slice(0, at);
        buffer = buffer.slice(at + 1);
        const message = JSON.parse(line);
        if (typeof message.id === "number") this.#pending.get(message.id)?.(message);
      }
    }
  }

  /** A server that exits early fails every pending request with its stderr, instead of hanging the bench. */
  async #watchExit(): Promise<void> {
    const [stderr, status] = await Promise.all([new Response(this.#child.stderr).text(), this.#child.status]);
    const reason = stderr.trim().slice(-400);
    this.#exited = `server exited (${status.code}) before answering: ${reason}`;
    for (const [id, answer] of this.#pending) {
      answer({ error: { message: this.#exited } });
      this.#pending.delete(id);
    }
  }

  request(method: string, params: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
    if (this.#exited) return Promise.resolve({ error: { message: this.#exited } });
    const id = this.#nextId++;
    const answered = new Promise<Record<string, unknown>>((resolve) => this.#pending.set(id, resolve));
    this.#send({ jsonrpc: "2.0", id, method, params });
    return answered;
  }

  #send(message: unknown): void {
    this.#writer.write(new TextEncoder().encode(`${JSON.stringify(message)}\n`));
  }

  async initialize(): Promise<void> {
    await this.request("initialize", {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "pdf-bench", version: "1" },
    });
    this.#send({ jsonrpc: "2.0", method: "notifications/initialized" });
  }

  get pid(): number {
    return this.#child.pid;
  }

  /** Calls a tool; its structuredContent, or an Error for a tool error or a JSON-RPC error. */
  async call(name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
    const reply = await this.request("tools/call", { name, arguments: args });
    const result = reply.result as { isError?: boolean; structuredContent?: Record<string, unknown> } | undefined;
    if (!result || result.isError) throw new Error(`${name} failed: ${JSON.stringify(reply).slice(0, 300)}`);
    return result.structuredContent ?? {};
  }

  /** Live processes: the server and its extractor processes. */
  async processes(): Promise<number> {
    return 1 + (await childrenOf(this.#child.pid)).length;
  }

  /** Resident memory of the server process (Linux), in bytes. */
  async rssBytes(): Promise<number | undefined> {
    const status = await Deno.readTextFile(`/proc/${this.#child.pid}/status`).catch(() => "");
    const kb = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
    return kb === undefined ? undefined : Number(kb) * 1024;
  }

  /** One search_pdf call, checked; its wall time in ms as the client sees it. */
  async search(name: string, doc: { file: string; query: string; matches: number }): Promise<number> {
    const started = performance.now();
    const reply = await this.request("tools/call", {
      name: "search_pdf",
      // Quoted: the exact phrase, as pdftotext | grep counts it (unquoted words would be ranked instead).
      arguments: { pdf_name: name, query: `"${doc.query}"`, context_length: 2000, topk: 10 },
    });
    const elapsed = performance.now() - started;
    const result = (reply.result ?? {}) as { structuredContent?: { total_matches?: number } };
    if (result.structuredContent?.total_matches !== doc.matches) {
      throw new Error(`unexpected search_pdf answer for ${doc.file}: ${JSON.stringify(reply).slice(0, 300)}`);
    }
    return elapsed;
  }

  /** CPU time in ms of the server and its extractor processes so far (Linux), else undefined. */
  async cpuMs(): Promise<number | undefined> {
    const pids = [this.#child.pid, ...(await childrenOf(this.#child.pid))];
    const ticks = await Promise.all(pids.map(cpuTicks));
    return ticks.some((t) => t === undefined) ? undefined : 10 * ticks.reduce((a, b) => a! + b!, 0)!;
  }

  async close(): Promise<void> {
    await this.#writer.close().catch(() => {});
    await this.#child.status;
  }
}

/** utime + stime in clock ticks (1/100 s) from /proc, or undefined where there is no /proc. */
async function cpuTicks(pid: number): Promise<number | undefined> {
  try {
    const fields = (await Deno.readTextFile(`/proc/${pid}/stat`)).split(") ")[1].split(" ");
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return undefined;
  }
}

async function childrenOf(pid: number): Promise<number[]> {
  const children: number[] = [];
  try {
    for await (const task of Deno.readDir(`/proc/${pid}/task`)) {
      const text = await Deno.readTextFile(`/proc/${pid}/task/${task.name}/children`).catch(() => "");
      children.push(...text.split(" ").filter(Boolean).map(Number));
    }
  } catch {
    // no /proc
  }
  return children;
}

/** Whether pdftotext can run, installing poppler-utils from Debian when it is missing and apt-get works. */
export async function ensurePdftotext(): Promise<boolean> {
  if (await succeeds("pdftotext", ["-v"])) return true;
  if (!(await succeeds("apt-get", ["--version"]))) return false;
  if (!(await succeeds("apt-get", ["install", "-y", "-q", "poppler-utils"]))) {
    await succeeds("apt-get", ["update", "-q"]);
    await succeeds("apt-get", ["install", "-y", "-q", "poppler-utils"]);
  }
  return await succeeds("pdftotext", ["-v"]);
}

async function succeeds(command: string, args: string[]): Promise<boolean> {
  try {
    return (await new Deno.Command(command, { args, stdout: "null", stderr: "null" }).output()).success;
  } catch {
    return false;
  }
}

/** The 1-minute load average against the core count: every tool competes with whatever else runs. */
export function machineLoad(): string {
  const cores = navigator.hardwareConcurrency ?? 1;
  try {
    return `load average ${Deno.loadavg()[0].toFixed(1)} on ${cores} cores`;
  } catch {
    return `${cores} cores`;
  }
}
