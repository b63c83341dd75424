/**
 * A `fetch` that hands requests straight to the mock upstream's handler, with no socket in between, yet
 * behaves as fetch over a wire does where the pipeline can tell: it follows redirects (or not, per
 * `request.redirect`), gives the final `url`, honours the request's abort signal, and a body shorter
 * than its Content-Length fails mid-read like a dropped connection. No port, no network jitter: what
 * the mock records is exactly what the client sent, when it sent it.
 */
import type { Fetch } from "../../src/upstream/types.ts";

/** Called as the exchange advances (request handed over, answer ready, each body chunk). */
export type OnProgress = () => void;

const MAX_REDIRECTS = 20;

export function inProcessFetch(
  handle: (request: Request) => Promise<Response>,
  onProgress: OnProgress = () => {},
): Fetch {
  return async (request) => {
    let current = request;
    for (let hop = 0;; hop++) {
      const signal = request.signal;
      if (signal.aborted) throw signal.reason;
      onProgress();
      const response = await abortable(handle(current), signal);
      onProgress();
      const location = response.headers.get("location");
      if (response.status < 300 || response.status > 399 || !location || current.redirect === "manual") {
        return asReceived(response, current.url, signal, onProgress);
      }
      await response.body?.cancel();
      if (current.redirect === "error") throw new TypeError(`redirect to ${location} refused (redirect: "error")`);
      if (hop >= MAX_REDIRECTS) throw new TypeError(`more than ${MAX_REDIRECTS} redirects`);
      const keepBody = response.status === 307 || response.status === 308;
      current = new Request(new URL(location, current.url), {
        method: keepBody ? current.method : "GET",
        headers: current.headers,
        body: keepBody ? current.body : undefined,
        redirect: current.redirect,
        signal,
      });
    }
  };
}

/** The response with its final URL, its body cut short (when the mock says so) failing as on a socket. */
function asReceived(response: Response, url: string, signal: AbortSignal, onProgress: OnProgress): Response {
  const declared = Number(response.headers.get("content-length") ?? NaN);
  let body = response.body;
  if (body && Number.isFinite(declared)) body = body.pipeThrough(lengthCheck(declared));
  if (body) body = body.pipeThrough(progressReport(onProgress), { signal });
  const received = new Response(body, response);
  Object.defineProperty(received, "url", { value: url });
  return received;
}

function progressReport(onProgress: OnProgress): TransformStream<Uint8Array<ArrayBuffer>, Uint8Array<ArrayBuffer>> {
  return new TransformStream({
    transform(chunk, controller) {
      onProgress();
      controller.enqueue(chunk);
    },
    flush: onProgress,
  });
}

function lengthCheck(declared: number): TransformStream<Uint8Array<ArrayBuffer>, Uint8Array<ArrayBuffer>> {
  let seen = 0;
  return new TransformStream({
    transform(chunk, controller) {
      seen += chunk.length;
      controller.enqueue(chunk);
    },
    flush(controller) {
      if (seen < declared) {
        controller.error(new TypeError(`connection closed after ${seen} of ${declared} bytes of the body`));
      }
    },
  });
}

function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}
