/**
 * The README's server blocks, run as written through `sh` on the ports they name (3010, 3011): each
 * starts, answers one call, and is stopped with everything it started. They hold a machine-wide lock on
 * those ports (doc_blocks.ts), so parallel test runs of other checkouts take turns instead of colliding.
 * Stand-ins, each marked in its block: `…` (your secret) is a generated secret; the Auth0 JWKS is served on
 * loopback by a key pair of the test; the KV Connect host is a loopback address where no KV answers (the
 * server starts and paces alone, as the README says of a store that fails).
 */
import assert from "node:assert/strict";
import { exportJWK, generateKeyPair, SignJWT } from "jose";
import { mintToken } from "../../scripts/token.ts";
import { waitForHealth } from "../e2e/helpers.ts";
import {
  block,
  commandLines,
  type DocBlock,
  docBlocks,
  modernCall,
  runScript,
  shell,
  withFixedPorts,
} from "./doc_blocks.ts";
import { freePort } from "./helpers.ts";

const README = docBlocks("README.md");
const SECRET = "readme-blocks-secret-that-is-long-enough-for-hs256";
const BASE = "http://127.0.0.1:3010";

/** A block with its `…` placeholders (your secret) filled in. */
function filled(b: DocBlock): string {
  return b.body.replaceAll("…", SECRET);
}

/** Starts a block whose server runs in the foreground; answers once /healthz does. */
async function serving(script: string, base = BASE) {
  const sh = shell(script);
  try {
    await Promise.race([
      waitForHealth(base, 120_000),
      sh.output.then((o) => Promise.reject(new Error(`the block ended (${o.code}): ${o.stderr}`))),
    ]);
  } catch (error) {
    await sh.stop();
    throw error;
  }
  return sh;
}

async function listPdfs(base: string, token: string | undefined): Promise<string> {
  const { status, body } = await modernCall(base, token, "tools/call", { name: "list_pdfs", arguments: {} });
  assert.equal(status, 200, JSON.stringify(body));
  return JSON.stringify(body);
}

Deno.test("README.md › HTTP with a token #1, then README.md › Protocol versions: 2026-07-28 and 2025-11-25 #2", async () => {
  const token = block(README, "README.md › HTTP with a token #1").body;
  const discover = block(README, "README.md › Protocol versions: 2026-07-28 and 2025-11-25 #2").body;
  await withFixedPorts(async () => {
    const out = await runScript(`${token}\necho\n${discover}`);
    assert.equal(out.code, 0, out.stderr);
    const [initialize, discovered] = out.stdout.split("\n").map((l) => l.replace(/^data: /, ""))
      .filter((l) => l.startsWith("{"));
    assert.equal(JSON.parse(initialize).result.serverInfo.name, "science-mcp");
    assert.deepEqual(JSON.parse(discovered).result.supportedVersions, ["2026-07-28", "2025-11-25"]);
  });
});

Deno.test("README.md › OAuth for remote connectors #1: with a loopback JWKS in place of Auth0", async () => {
  const keys = await generateKeyPair("RS256");
  const jwk = { ...await exportJWK(keys.publicKey), kid: "k1", alg: "RS256", use: "sig" };
  const jwks = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, () => Response.json({ keys: [jwk] }));
  const local = `127.0.0.1:${jwks.addr.port}`;
  const script = block(README, "README.md › OAuth for remote connectors #1").body
    .replace("https://your-tenant.us.auth0.com/.well-known/jwks.json", `http://${local}/.well-known/jwks.json`)
    .replace(/,your-tenant\.us\.auth0\.com /, `,${local} `);
  assert.ok(script.includes(local) && !script.includes("your-tenant.us.auth0.com/.well-known"), script);
  try {
    await withFixedPorts(async () => {
      const sh = await serving(script);
      try {
        const token = await new SignJWT({ sub: "alice" })
          .setProtectedHeader({ alg: "RS256", kid: "k1", typ: "at+jwt" })
          .setIssuer("https://your-tenant.us.auth0.com/")
          .setAudience("https://mcp.example.org/mcp")
          .setIssuedAt()
          .setExpirationTime("5m")
          .sign(keys.privateKey);
        assert.match(await listPdfs(BASE, token), /dvt_prophylaxis_review/);
        const refused = await fetch(`${BASE}/mcp`, { method: "POST", body: "{}" });
        assert.equal(refused.status, 401);
        assert.match(refused.headers.get("www-authenticate") ?? "", /resource_metadata="https:\/\/mcp\.example\.org\//);
        await refused.body?.cancel();
      } finally {
        await sh.stop();
      }
    });
  } finally {
    await jwks.shutdown();
  }
});

for (const id of ["README.md › `deno serve` and Deno Deploy #1", "README.md › `deno serve` and Deno Deploy #2"]) {
  Deno.test(`${JSON.stringify(id)}: serves on 127.0.0.1:3010 with the secret`, async () => {
    await withFixedPorts(async () => {
      const sh = await serving(filled(block(README, id)));
      try {
        assert.match(await listPdfs(BASE, await mintToken(SECRET, { subject: "readme" })), /dvt_prophylaxis_review/);
      } finally {
        await sh.stop();
      }
    });
  });
}

/** The block's groups (split at blank lines), each run after the block's `export` lines. */
function groups(b: DocBlock): { exports: string; commands: string }[] {
  const parts = b.body.split(/\n\s*\n/);
  const exports = commandLines(b.body).filter((l) => l.startsWith("export ")).join("\n");
  return parts.map((part) => ({
    exports,
    commands: commandLines(part).filter((l) => !l.startsWith("export ")).join("\n"),
  }));
}

Deno.test('"README.md › Several instances, one rate budget #1": each group serves as written', async (t) => {
  const b = block(README, "README.md › Several instances, one rate budget #1");
  const [instances, parallel, kvConnect] = groups(b);
  const waitAndCall = (port: number) =>
    `curl -sf --retry 60 --retry-connrefused --retry-delay 1 http://127.0.0.1:${port}/healthz >/dev/null\n`;
  await withFixedPorts(async () => {
    await t.step("two instances on 3010 and 3011 sharing the KV file", async () => {
      // The block's own lines (the secret comes from its openssl line); then the test's checks in the same shell.
      const file = await Deno.makeTempFile({ prefix: "readme_secret_" });
      const script = `${instances.exports}\n${instances.commands}\n${waitAndCall(3010)}${waitAndCall(3011)}` +
        `${keepSecret(file)}\nwait`;
      const sh = shell(script);
      try {
        const secret = await secretKept(file, sh);
        const token = await mintToken(secret, { subject: "readme" });
        for (const base of [BASE, "http://127.0.0.1:3011"]) {
          assert.match(await listPdfs(base, token), /dvt_prophylaxis/);
        }
      } finally {
        await sh.stop();
      }
    });
    await t.step("deno serve --parallel on 127.0.0.1 only", async () => {
      const sh = await serving(`${instances.exports}\n${parallel.commands.replaceAll("…", SECRET)}`);
      try {
        assert.match(await listPdfs(BASE, await mintToken(SECRET, { subject: "readme" })), /dvt_prophylaxis_review/);
        const addresses = Deno.networkInterfaces().filter((i) => i.family === "IPv4" && i.address !== "127.0.0.1");
        for (const other of addresses) {
          await assert.rejects(
            () => fetch(`http://${other.address}:3010/healthz`),
            `not listening on ${other.address}`,
          );
        }
      } finally {
        await sh.stop();
      }
    });
    await t.step("KV Connect: a loopback address in place of kv.internal.example:4512", async () => {
      const kv = `127.0.0.1:${freePort()}`;
      const commands = kvConnect.commands.replaceAll("…", "kv-access-token")
        .replace("https://kv.internal.example:4512", `http://${kv}`)
        .replace(",kv.internal.example:4512 ", `,${kv} `);
      assert.ok(!commands.includes("kv.internal.example"), commands);
      const file = await Deno.makeTempFile({ prefix: "readme_secret_" });
      const script = `${instances.exports}\n${commands} &\n${waitAndCall(3010)}${keepSecret(file)}\nwait`;
      const sh = shell(script);
      try {
        const token = await mintToken(await secretKept(file, sh), { subject: "readme" });
        assert.match(await listPdfs(BASE, token), /dvt_prophylaxis_review/);
      } finally {
        await sh.stop();
      }
    });
  });
});

/** A check line: the secret the block generated (openssl) into `file`, once the servers answer. */
function keepSecret(file: string): string {
  return `printf %s "$MCP_AUTH_SECRET_KEY" > ${file}.part && mv ${file}.part ${file}`;
}

/** Waits for {@link keepSecret}'s file (written after the health checks passed), or for the block to fail. */
async function secretKept(file: string, sh: ReturnType<typeof shell>): Promise<string> {
  let ended: string | undefined;
  sh.output.then((o) => ended = `the block ended (${o.code}): ${o.stderr}`);
  for (;;) {
    const secret = await Deno.readTextFile(file).catch(() => "");
    if (secret) {
      await Deno.remove(file);
      return secret;
    }
    if (ended) throw new Error(ended);
    await new Promise((r) => setTimeout(r, 200));
  }
}
