/**
 * Compressed bodies and memory (#35). An upstream answering `Content-Encoding: gzip` with endless
 * compressed zeros is stopped at the body cap (50 MiB decoded); before #35 eight such answers at once
 * held ~3.9 GB and kept it, since the decoder hands out 4 KiB views of 64 KiB buffers and the reader kept
 * the views. Each case runs in its own process (bench/bomb_probe.ts) against bench/bomb_server.ts (a
 * third process): 8 concurrent gzip bombs, then 8 concurrent plain chunked bodies (no length) at the
 * same cap. Targets: the gzip peak ≤ 1.10 × the plain peak; RSS 10 s after the last answer within
 * 100 MB of the start.
 */
import type { BenchOptions, BenchRow } from "./types.ts";

const MB = 1e6;
const ROOT = new URL("../", import.meta.url).pathname;

interface Probe {
  start: number;
  peak: number;
  after: number;
  maxBytes: number;
  outcomes: string[];
}

async function startServer(): Promise<{ url: string; stop(): Promise<void> }> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-net=127.0.0.1", "bench/bomb_server.ts"],
    cwd: ROOT,
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const reader = child.stdout.getReader();
  let text = "";
  while (!text.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) throw new Error("bench/bomb_server.ts exited before printing its URL");
    text += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  const drained = child.stdout.pipeTo(new WritableStream()).catch(() => {});
  return {
    url: text.split("\n")[0].trim(),
    async stop() {
      child.kill("SIGTERM");
      await child.status;
      await drained;
    },
  };
}

async function probe(url: string, kind: "gzip" | "plain", calls: number): Promise<Probe> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "bench/bomb_probe.ts", url, kind, String(calls)],
    cwd: ROOT,
    stdout: "piped",
    stderr: "inherit",
  }).output();
  if (!output.success) throw new Error(`bench/bomb_probe.ts ${kind} failed`);
  return JSON.parse(new TextDecoder().decode(output.stdout).trim().split("\n").at(-1)!);
}

export async function run(options: BenchOptions): Promise<BenchRow[]> {
  const command = `deno task bench${options.quick ? " --quick" : ""} gzip_bomb`;
  const calls = 8;
  const server = await startServer();
  try {
    const gzip = await probe(server.url, "gzip", calls);
    const plain = await probe(server.url, "plain", calls);
    const capped = (p: Probe) => p.outcomes.every((o) => o === "too_large");
    const cap = `${(gzip.maxBytes / 1024 ** 2).toFixed(0)} MiB cap`;
    const ratio = (gzip.peak - gzip.start) / Math.max(1, plain.peak - plain.start);
    const row = (p: Probe, label: string): BenchRow[] => [
      {
        name: `${calls} concurrent ${label} bodies at the ${cap}, peak RSS`,
        value: Math.round(p.peak / MB),
        unit: "MB",
        command,
        notes: `start ${Math.round(p.start / MB)} MB; ${
          capped(p) ? "every call PAYLOAD_TOO_LARGE" : p.outcomes.join(", ")
        }`,
        ...(capped(p) ? {} : { pass: false }),
      },
      {
        name: `${calls} concurrent ${label} bodies, RSS 10 s after the last answer above the start`,
        value: Math.round((p.after - p.start) / MB),
        unit: "MB",
        target: "≤ 100 MB",
        pass: p.after - p.start <= 100 * MB,
        command,
        notes: "own process",
      },
    ];
    return [
      ...row(gzip, "gzip bomb (endless compressed zeros)"),
      ...row(plain, "plain chunked (no length)"),
      {
        name: "gzip bombs vs plain chunked bodies: peak RSS growth, ratio",
        value: Number(ratio.toFixed(2)),
        unit: "×",
        target: "≤ 1.10",
        pass: ratio <= 1.1,
        command,
        notes: "peak minus start of each process",
      },
    ];
  } finally {
    await server.stop();
  }
}
