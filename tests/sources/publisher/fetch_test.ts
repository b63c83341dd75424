import assert from "node:assert/strict";
import { ManualClock } from "../../../src/core/clock.ts";
import { fetchPublisher } from "../../../src/sources/publisher/fetch.ts";
import { PublisherRefusal, type ResolveDns } from "../../../src/sources/publisher/guard.ts";
import { type RecordedRequest, scriptedFetch, testRuntime } from "../../helpers/runtime.ts";
import { settle } from "../../tools/papers/mock.ts";

const dns: ResolveDns = (host, type) =>
  Promise.resolve(
    type === "A" && host.endsWith(".example.org")
      ? (host.startsWith("intranet") ? ["10.0.0.7"] : ["93.184.216.34"])
      : [],
  );

function setup(respond: (req: RecordedRequest) => Response) {
  const clock = new ManualClock(1_700_000_000_000);
  const fetch = scriptedFetch(respond);
  const modes: RequestRedirect[] = [];
  const runtime = testRuntime({ fetch: (request) => (modes.push(request.redirect), fetch(request)), clock });
  const ctx = { upstream: runtime.upstream, signal: new AbortController().signal };
  const run = (url: string, maxHops?: number) =>
    settle(clock, fetchPublisher(ctx, url, { resolveDns: dns, maxBytes: 1 << 20, timeoutMs: 60_000, maxHops }));
  return { fetch, run, modes };
}

const redirect = (to: string, status = 302) => new Response(null, { status, headers: { location: to } });

Deno.test("fetchPublisher follows redirects by hand, asking for redirect: manual on every hop", async () => {
  const { fetch, run, modes } = setup((req) =>
    req.url.pathname === "/doi"
      ? redirect("/article.pdf", 301)
      : new Response("%PDF-1.7 ...", { headers: { "content-type": "application/pdf" } })
  );
  const { response, hops } = await run("https://journals.example.org/doi");
  assert.equal(response.status, 200);
  assert.deepEqual(hops, ["https://journals.example.org/doi", "https://journals.example.org/article.pdf"]);
  assert.deepEqual(fetch.requests.map((r) => r.url.pathname), ["/doi", "/article.pdf"]);
  assert.deepEqual(modes, ["manual", "manual"]);
});

Deno.test("fetchPublisher refuses a redirect to a private, loopback or metadata address before requesting it", async (t) => {
  const targets: [string, RegExp][] = [
    ["http://169.254.169.254/latest/meta-data/", /link-local/],
    ["http://127.0.0.1:8080/admin", /loopback/],
    ["http://[::1]/", /loopback/],
    ["http://intranet.example.org/", /private/],
    ["file:///etc/passwd", /scheme file:/],
  ];
  for (const [target, reason] of targets) {
    await t.step(target, async () => {
      const { fetch, run } = setup(() => redirect(target));
      await assert.rejects(
        run("https://journals.example.org/start"),
        (e) => e instanceof PublisherRefusal && reason.test(e.message),
      );
      assert.equal(fetch.requests.length, 1, "the hostile hop is never requested");
    });
  }
});

Deno.test("fetchPublisher caps the number of hops and refuses a redirect without Location", async () => {
  const loop = setup((req) => redirect(`/hop${Number(req.url.pathname.slice(4) || 0) + 1}`));
  await assert.rejects(loop.run("https://journals.example.org/hop0", 3), /more than 3 redirects/);
  assert.equal(loop.fetch.requests.length, 4);
  const bare = setup(() => new Response(null, { status: 302 }));
  await assert.rejects(bare.run("https://journals.example.org/x"), /redirect without a Location/);
});

Deno.test("fetchPublisher names a missing network permission instead of a bare DNS error", async () => {
  const runtime = testRuntime({ fetch: scriptedFetch(), clock: new ManualClock(0) });
  const ctx = { upstream: runtime.upstream, signal: new AbortController().signal };
  const denied: ResolveDns = () => Promise.reject(new Deno.errors.NotCapable('Requires net access to "10.0.0.53:53"'));
  await assert.rejects(
    fetchPublisher(ctx, "https://journals.example.org/x.pdf", { resolveDns: denied, maxBytes: 1024, timeoutMs: 1000 }),
    (e) =>
      e instanceof PublisherRefusal &&
      /no network permission for journals\.example\.org: .*--allow-net/.test(e.message),
  );
});
