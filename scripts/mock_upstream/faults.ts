/**
 * Faults the mock upstream can inject, each modelled on something a real upstream does: 429s with and
 * without Retry-After, 5xx, dropped connections, stalls, slow and truncated bodies, arXiv's HTTP 200
 * `Rate exceeded.`, NCBI's rate-limit JSON, PubChem's ServerBusy fault and throttling header, HTML error
 * pages served with 200, empty and oversized bodies.
 *
 * Text form (for the `x-mock-fault` header, the `mock_fault` query parameter and the CLI):
 * `429`, `429;retry-after=2`, `500`, `502`, `503`, `reset`, `delay=500`, `slow=200`, `truncate`,
 * `rate-exceeded`, `ncbi-rate-limit`, `pubchem-busy`, `throttle=Yellow`, `html`, `empty`, `oversize=1048576`.
 */

export type Fault =
  | { kind: "status"; status: number; retryAfter?: string }
  | { kind: "reset" }
  | { kind: "delay"; ms: number }
  | { kind: "slow_body"; chunkDelayMs: number; chunks?: number }
  | { kind: "truncate" }
  | { kind: "rate_exceeded" }
  | { kind: "ncbi_rate_limit" }
  | { kind: "pubchem_busy" }
  | { kind: "throttle_header"; level: "Green" | "Yellow" | "Red" | "Black" }
  | { kind: "html_error" }
  | { kind: "empty" }
  | { kind: "oversize"; bytes: number };

const LEVELS = ["Green", "Yellow", "Red", "Black"] as const;

/** Parses the text form; throws a message listing the accepted forms on anything else. */
export function parseFault(spec: string): Fault {
  const [head, ...options] = spec.trim().split(";").map((s) => s.trim());
  const [name, arg] = head.split("=", 2);
  const option = (key: string) => options.find((o) => o.startsWith(`${key}=`))?.slice(key.length + 1);
  const number = (fallback?: number) => {
    const n = arg === undefined ? fallback : Number(arg);
    if (n === undefined || !Number.isFinite(n) || n < 0) {
      throw new Error(`mock fault '${spec}': '${name}' needs =<number>`);
    }
    return n;
  };
  if (/^[45]\d\d$/.test(name)) return { kind: "status", status: Number(name), retryAfter: option("retry-after") };
  switch (name) {
    case "reset":
      return { kind: "reset" };
    case "delay":
      return { kind: "delay", ms: number() };
    case "slow":
      return {
        kind: "slow_body",
        chunkDelayMs: number(),
        chunks: option("chunks") ? Number(option("chunks")) : undefined,
      };
    case "truncate":
      return { kind: "truncate" };
    case "rate-exceeded":
      return { kind: "rate_exceeded" };
    case "ncbi-rate-limit":
      return { kind: "ncbi_rate_limit" };
    case "pubchem-busy":
      return { kind: "pubchem_busy" };
    case "throttle": {
      const level = LEVELS.find((l) => l.toLowerCase() === (arg ?? "").toLowerCase());
      if (!level) throw new Error(`mock fault '${spec}': throttle=<${LEVELS.join("|")}>`);
      return { kind: "throttle_header", level };
    }
    case "html":
      return { kind: "html_error" };
    case "empty":
      return { kind: "empty" };
    case "oversize":
      return { kind: "oversize", bytes: number(64 * 1024 * 1024) };
  }
  throw new Error(
    `unknown mock fault '${spec}'; use 429[;retry-after=S], 500, 502, 503, reset, delay=MS, slow=MS, truncate, ` +
      "rate-exceeded, ncbi-rate-limit, pubchem-busy, throttle=Yellow|Red|Black|Green, html, empty, oversize=BYTES",
  );
}

/** A short label for the request log. */
export function faultLabel(fault: Fault): string {
  switch (fault.kind) {
    case "status":
      return fault.retryAfter ? `${fault.status};retry-after=${fault.retryAfter}` : String(fault.status);
    case "delay":
      return `delay=${fault.ms}`;
    case "slow_body":
      return `slow=${fault.chunkDelayMs}`;
    case "throttle_header":
      return `throttle=${fault.level}`;
    case "oversize":
      return `oversize=${fault.bytes}`;
    default:
      return fault.kind;
  }
}

/** Faults that replace the answer entirely (the route is not consulted). */
export function replacementFor(fault: Fault): Response | undefined {
  switch (fault.kind) {
    case "status": {
      const headers: Record<string, string> = { "content-type": "text/plain" };
      if (fault.retryAfter !== undefined) headers["retry-after"] = fault.retryAfter;
      return new Response(`mock upstream: injected HTTP ${fault.status}`, { status: fault.status, headers });
    }
    case "reset":
      // Declares a body, then ends the stream at once: the client sees the connection die mid-response.
      return declaredButCut(new Uint8Array(0), 1024, "text/plain");
    case "rate_exceeded":
      return new Response("Rate exceeded.", { headers: { "content-type": "text/plain" } });
    case "ncbi_rate_limit":
      return Response.json({ error: "API rate limit exceeded", "api-key": "127.0.0.1", count: "4", limit: "3" });
    case "pubchem_busy":
      return Response.json(
        { Fault: { Code: "PUGREST.ServerBusy", Message: "Too many requests or server too busy" } },
        { status: 503 },
      );
    case "html_error":
      return new Response(
        "<!DOCTYPE html><html><head><title>Service Unavailable</title></head><body><h1>Service Unavailable</h1>" +
          "<p>The server is temporarily unable to service your request. Please try again later.</p></body></html>",
        { headers: { "content-type": "text/html; charset=utf-8" } },
      );
    case "empty":
      return new Response("", { headers: { "content-type": "text/plain" } });
    case "oversize":
      return new Response(filler(fault.bytes), { headers: { "content-type": "application/octet-stream" } });
    default:
      return undefined;
  }
}

/** Waits on the mock's clock (real time over a socket, simulated time in process). */
export type Sleep = (ms: number) => Promise<void>;

/** Faults that change the route's own answer (after waiting for `delay` ones before asking the route). */
export async function alter(fault: Fault, response: Response, sleep: Sleep): Promise<Response> {
  switch (fault.kind) {
    case "slow_body": {
      const body = new Uint8Array(await response.arrayBuffer());
      return new Response(slowly(body, fault.chunks ?? 8, fault.chunkDelayMs, sleep), copyMeta(response));
    }
    case "truncate": {
      const body = new Uint8Array(await response.arrayBuffer());
      return declaredButCut(
        body.subarray(0, Math.floor(body.length / 2)),
        body.length,
        response.headers.get("content-type"),
      );
    }
    case "throttle_header": {
      const headers = new Headers(response.headers);
      headers.set(
        "x-throttling-control",
        `Request Count status: ${fault.level} (60%), Request Time status: Green (10%), Service status: Green (20%)`,
      );
      return new Response(response.body, { status: response.status, headers });
    }
    default:
      return response;
  }
}

function copyMeta(response: Response): ResponseInit {
  const headers = new Headers(response.headers);
  headers.delete("content-length");
  return { status: response.status, headers };
}

/** Sends `sent`, while the headers promise `declared` bytes: a truncated transfer as clients see it. */
function declaredButCut(sent: Uint8Array, declared: number, contentType: string | null): Response {
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      if (sent.length) controller.enqueue(sent);
      controller.close();
    },
  });
  const headers: Record<string, string> = { "content-length": String(Math.max(declared, sent.length + 1)) };
  if (contentType) headers["content-type"] = contentType;
  return new Response(stream, { headers });
}

function slowly(body: Uint8Array, chunks: number, delayMs: number, sleep: Sleep): ReadableStream<Uint8Array> {
  const size = Math.max(1, Math.ceil(body.length / chunks));
  let offset = 0;
  return new ReadableStream({
    async pull(controller) {
      if (offset >= body.length) return controller.close();
      await sleep(delayMs);
      controller.enqueue(body.subarray(offset, offset += size));
    },
  });
}

function filler(bytes: number): ReadableStream<Uint8Array> {
  const chunk = new Uint8Array(64 * 1024).fill(0x78);
  let left = bytes;
  return new ReadableStream({
    pull(controller) {
      if (left <= 0) return controller.close();
      const n = Math.min(left, chunk.length);
      controller.enqueue(chunk.subarray(0, n));
      left -= n;
    },
  });
}
