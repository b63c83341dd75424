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

  /** An empty paper library of its own (LIBRARY_DIR), so that search_pdfs reads PDF_ROOT's files only. */
  readonly #library = Deno.makeTempDirSync({ prefix: "pdf_bench_library_" });

  constructor(root: string, cacheDir?: string, env: Record<string, string> = {}) {
    // --allow-read replaces the set's read list: src/ (toolsets, extractor and parse workers), the library and
    // the session logs (written by default over stdio) must stay readable.
    const read = [root, join(REPO, "src"), join(REPO, "logs"), this.#library, ...(cacheDir ? [cacheDir] : [])].join(
      ",",
    );
    this.#child = new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-P=stdio",
        `--allow-read=${read}`,
        `--allow-write=${[join(REPO, "logs"), this.#library, ...(cacheDir ? [cacheDir] : [])].join(",")}`,
        "main.ts",
        "serve",
        "--transport",
        "stdio",
      ],
      cwd: REPO,
      env: {
        PDF_ROOT: root,
        LIBRARY_DIR: this.#library,
        MCP_LOG_LEVEL: "error",
        ...(cacheDir ? { SCIENCE_MCP_CACHE_DIR: cacheDir } : {}),
        ...env,
      },
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

  /** Live processes: the server and every process under it (extractors), zombies included. */
  async processes(): Promise<number> {
    return 1 + (await descendantsOf(this.#child.pid)).length;
  }

  /** Resident memory of the server process alone (Linux), in bytes. */
  async rssBytes(): Promise<number | undefined> {
    return await rssOf(this.#child.pid);
  }

  /** Resident memory of the server and every live process under it (extractors), in bytes. */
  treeRssBytes(): Promise<number> {
    return treeRssBytes(this.#child.pid);
  }

  /** One search_pdf call, checked; its wall time in ms as the client sees it. */
  async search(name: string, doc: { file: string; query: string; matches?: number }): Promise<number> {
    const started = performance.now();
    const reply = await this.request("tools/call", {
      name: "search_pdf",
      // Quoted: the exact phrase, as pdftotext | grep counts it (unquoted words would be ranked instead).
      arguments: { pdf_name: name, query: `"${doc.query}"`, context_length: 2000, topk: 10 },
    });
    const elapsed = performance.now() - started;
    const result = (reply.result ?? {}) as { structuredContent?: { total_matches?: number } };
    const total = result.structuredContent?.total_matches;
    // A wrong or empty answer must not pass as fast.
    if (typeof total !== "number" || total <= 0 || (doc.matches !== undefined && total !== doc.matches)) {
      throw new Error(`unexpected search_pdf answer for ${doc.file}: ${JSON.stringify(reply).slice(0, 300)}`);
    }
    return elapsed;
  }

  /**
   * CPU time in ms of the whole process tree so far: the server and every process under it, live or already
   * reaped (Linux; see {@link treeCpuMs}), else undefined.
   */
  async cpuMs(): Promise<number | undefined> {
    try {
      return await treeCpuMs(this.#child.pid);
    } catch {
      return undefined;
    }
  }

  /** CPU of the server process alone (its own threads, no children), in ms. */
  async ownCpuMs(): Promise<number> {
    const f = await statFields(this.#child.pid);
    return (Number(f[11]) + Number(f[12])) * TICK_MS;
  }

  /** The tree's CPU once it has stopped rising (see {@link settledCpuMs}). */
  settledCpuMs(): Promise<number> {
    return settledCpuMs(this.#child.pid);
  }

  async close(): Promise<void> {
    await this.#writer.close().catch(() => {});
    await this.#child.status;
    await Deno.remove(this.#library, { recursive: true }).catch(() => {});
  }
}

const TICK_MS = 10; // USER_HZ = 100 on Linux

/** Fields of /proc/<pid>/stat after the command name (field 3 is index 0); throws when the process is gone. */
async function statFields(pid: number): Promise<string[]> {
  const stat = await Deno.readTextFile(`/proc/${pid}/stat`);
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
}

/**
 * CPU (user + system) of `pid`, its live descendants and every child any of them has reaped, in ms. A process's
 * CPU moves into its parent's cutime/cstime when the parent reaps it, so each process counts its own time and
 * its reaped children's. Parents are read before their children: a child reaped in between has left
 * /proc by then (its CPU already in its parent's figure), so the reading starts again instead of counting it
 * twice or not at all. Granularity: one clock tick (10 ms) per process.
 */
export async function treeCpuMs(pid: number): Promise<number> {
  for (let attempt = 0;; attempt++) {
    const order = [pid, ...(await descendantsOf(pid))];
    try {
      let ticks = 0;
      for (const p of order) {
        const f = await statFields(p);
        ticks += Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]);
      }
      return ticks * TICK_MS;
    } catch (error) {
      if (attempt >= 10) throw error;
    }
  }
}

/**
 * The tree's CPU once it has stopped rising: sampled every 100 ms until three samples in a row agree (a
 * tick-granular quiet of 300 ms: background wasm tier-up, GC and the reply's tail are done), at most `capMs`.
 */
export async function settledCpuMs(pid: number, capMs = 3000): Promise<number> {
  let last = await treeCpuMs(pid);
  let quiet = 0;
  for (let waited = 0; waited < capMs && quiet < 3; waited += 100) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const now = await treeCpuMs(pid);
    quiet = now === last ? quiet + 1 : 0;
    last = now;
  }
  return last;
}

/** VmRSS of one process in bytes; undefined when it is gone (or a zombie, which has none). */
async function rssOf(pid: number): Promise<number | undefined> {
  const status = await Deno.readTextFile(`/proc/${pid}/status`).catch(() => "");
  const kb = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
  return kb === undefined ? undefined : Number(kb) * 1024;
}

/** Resident memory of `pid` and its live descendants, in bytes. */
export async function treeRssBytes(pid: number): Promise<number> {
  const sizes = await Promise.all([pid, ...(await descendantsOf(pid))].map(rssOf));
  return sizes.reduce((a: number, b) => a + (b ?? 0), 0);
}

/** What {@link peakTreeRss} saw while the work ran. */
export interface TreePeak<T> {
  result: T;
  /** Largest tree RSS sample (server + live descendants), in bytes. */
  peak: number;
  /** Largest RSS sample of the server process alone, in bytes. */
  serverPeak: number;
  /** Every descendant pid seen (extractor processes started during the work, or alive at its start). */
  pids: Set<number>;
}

/**
 * Samples the tree RSS of `pid` every `everyMs` until `work` settles; resolves with the work's result, the largest
 * samples and the descendants seen.
 */
export async function peakTreeRss<T>(pid: number, work: Promise<T>, everyMs = 20): Promise<TreePeak<T>> {
  let done = false;
  let peak = 0;
  let serverPeak = 0;
  const pids = new Set<number>();
  const sample = async () => {
    const children = await descendantsOf(pid);
    for (const child of children) pids.add(child);
    const [server, ...others] = await Promise.all([pid, ...children].map(rssOf));
    serverPeak = Math.max(serverPeak, server ?? 0);
    peak = Math.max(peak, others.reduce((a: number, b) => a + (b ?? 0), server ?? 0));
  };
  const sampling = (async () => {
    while (!done) {
      await sample();
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  })().catch(() => {}); // a process gone mid-sample: the samples so far stand
  try {
    const result = await work;
    await sample();
    return { result, peak, serverPeak, pids };
  } finally {
    done = true;
    await sampling;
  }
}

/** Children of `pid` (every thread's), then theirs: parents always before their children. */
export async function descendantsOf(pid: number): Promise<number[]> {
  const found: number[] = [];
  for (let at = -1; at < found.length; at++) {
    const parent = at < 0 ? pid : found[at];
    try {
      for await (const task of Deno.readDir(`/proc/${parent}/task`)) {
        const text = await Deno.readTextFile(`/proc/${parent}/task/${task.name}/children`).catch(() => "");
        found.push(...text.split(" ").filter(Boolean).map(Number));
      }
    } catch {
      // gone, or no /proc
    }
  }
  return found;
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
