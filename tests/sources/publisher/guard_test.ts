import assert from "node:assert/strict";
import { PublisherRefusal, type ResolveDns, vetUrl } from "../../../src/sources/publisher/guard.ts";

/** A resolver that knows a few names; every other name does not exist. */
const dns: ResolveDns = (host, type) => {
  const table: Record<string, { A?: string[]; AAAA?: string[] }> = {
    "journals.example.org": { A: ["93.184.216.34"], AAAA: ["2606:2800:220:1:248:1893:25c8:1946"] },
    "internal.example.org": { A: ["10.1.2.3"] },
    "rebind.example.org": { A: ["93.184.216.34", "127.0.0.1"] },
    "v6only-local.example.org": { AAAA: ["fd00::5"] },
    "metadata.example.org": { A: ["169.254.169.254"] },
    "mock.example.org": { A: ["127.0.0.1"] },
  };
  return Promise.resolve(table[host]?.[type] ?? []);
};

const HOSTILE: [string, RegExp][] = [
  ["http://127.0.0.1/", /loopback/],
  ["http://localhost:8080/admin", /local name/],
  ["http://2130706433/", /127\.0\.0\.1 is a loopback/], // decimal
  ["http://0177.0.0.1/", /127\.0\.0\.1 is a loopback/], // octal
  ["http://0x7f.1/", /127\.0\.0\.1 is a loopback/], // hex, short form
  ["http://[::1]/", /loopback/],
  ["http://[::ffff:127.0.0.1]/", /IPv4-mapped/],
  ["http://[::ffff:a9fe:a9fe]/latest/meta-data/", /link-local \(IPv4-mapped\)/],
  ["http://169.254.169.254/latest/meta-data/", /link-local/],
  ["http://0.0.0.0/", /unspecified/],
  ["http://10.0.0.1/", /private/],
  ["http://192.168.0.1/", /private/],
  ["http://[fd00::1]/", /unique-local/],
  ["http://[fe80::1]/", /link-local/],
  ["http://224.0.0.1/", /multicast/],
  ["http://internal.example.org/paper.pdf", /internal\.example\.org \(10\.1\.2\.3\) is a private/],
  ["http://rebind.example.org/", /\(127\.0\.0\.1\) is a loopback/],
  ["http://v6only-local.example.org/", /unique-local/],
  ["http://metadata.example.org/", /link-local/],
  ["http://printer.local/", /local name/],
  ["http://db.internal/", /local name/],
  ["file:///etc/passwd", /scheme file: is not allowed/],
  ["ftp://journals.example.org/x.pdf", /scheme ftp: is not allowed/],
  ["gopher://journals.example.org/", /scheme gopher: is not allowed/],
  ["data:text/html,<h1>x</h1>", /scheme data: is not allowed/],
  ["javascript:alert(1)", /scheme javascript: is not allowed/],
  ["http://user:pass@journals.example.org/", /embedded credentials/],
  ["http://nowhere.example.org/", /does not resolve/],
  ["not a url", /not a valid URL/],
];

Deno.test(`vetUrl refuses ${HOSTILE.length} hostile URLs, each with a reason`, async (t) => {
  for (const [url, reason] of HOSTILE) {
    await t.step(url, async () => {
      await assert.rejects(
        vetUrl(url, { resolveDns: dns }),
        (e) => e instanceof PublisherRefusal && reason.test(e.message),
      );
    });
  }
});

Deno.test("vetUrl lets public hosts through, checking every resolved address", async () => {
  const url = await vetUrl("https://journals.example.org/article/1.pdf", { resolveDns: dns });
  assert.equal(url.host, "journals.example.org");
  assert.equal((await vetUrl("http://93.184.216.34:8080/x", { resolveDns: dns })).port, "8080");
});

Deno.test("loopback is allowed only through the explicit test seam, and nothing else is", async () => {
  await assert.rejects(vetUrl("http://mock.example.org/x", { resolveDns: dns }), PublisherRefusal);
  assert.ok(await vetUrl("http://mock.example.org/x", { resolveDns: dns, allowLoopback: true }));
  assert.ok(await vetUrl("http://127.0.0.1:4321/publisher/x", { resolveDns: dns, allowLoopback: true }));
  await assert.rejects(vetUrl("http://10.0.0.1/", { resolveDns: dns, allowLoopback: true }), /private/);
  await assert.rejects(vetUrl("http://169.254.169.254/", { resolveDns: dns, allowLoopback: true }), /link-local/);
});
