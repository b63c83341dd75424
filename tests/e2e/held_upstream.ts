/**
 * A mock upstream on 127.0.0.1 that can hold requests: in front of the recorded mock (scripts/mock_routes),
 * while `hold()` is on, each request waits until `release()` or until the server drops it. End-to-end
 * tests use it to keep tool calls in flight (slow NCBI / Europe PMC) while they cancel or stop the server.
 */
import { createMockUpstream } from "../../scripts/mock_upstream.ts";
import { mockBaseUrls } from "../../src/config.ts";

export interface HeldUpstream {
  url: string;
  port: number;
  /** Base-URL variables pointing a server here. */
  env: Record<string, string>;
  /** Requests that arrive from now on wait. */
  hold(): void;
  /** Lets every waiting and later request through. */
  release(): void;
  /** Resolves once `n` requests are waiting (counted since the last `hold()`). */
  waiting(n?: number): Promise<void>;
  close(): Promise<void>;
}

export function startHeldUpstream(): HeldUpstream {
  const mock = createMockUpstream({ rates: false });
  let held = false;
  let gate = Promise.withResolvers<void>();
  let count = 0;
  let watchers: { n: number; done: () => void }[] = [];
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: () => {} }, async (request) => {
    if (held) {
      count++;
      watchers = watchers.filter((w) => count < w.n || void w.done());
      const dropped = Promise.withResolvers<void>();
      request.signal.addEventListener("abort", () => dropped.resolve(), { once: true });
      await Promise.race([gate.promise, dropped.promise]);
      if (request.signal.aborted) return new Response(null, { status: 499 });
    }
    const url = new URL(request.url);
    const body = request.method === "GET" || request.method === "HEAD" ? undefined : await request.arrayBuffer();
    return await mock.fetch(
      new Request(`${mock.url}${url.pathname}${url.search}`, {
        method: request.method,
        headers: request.headers,
        body,
      }),
    );
  });
  const url = `http://127.0.0.1:${server.addr.port}`;
  return {
    url,
    port: server.addr.port,
    env: mockBaseUrls(url),
    hold() {
      held = true;
      count = 0;
      gate = Promise.withResolvers<void>();
    },
    release() {
      held = false;
      gate.resolve();
    },
    waiting(n = 1) {
      if (count >= n) return Promise.resolve();
      const { promise, resolve } = Promise.withResolvers<void>();
      watchers.push({ n, done: resolve });
      return promise;
    },
    async close() {
      gate.resolve();
      await server.shutdown();
    },
  };
}
