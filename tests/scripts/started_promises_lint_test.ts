/**
 * The lint rule behind "every started promise is awaited or handled on every path"
 * (scripts/lint/started_promises.ts): the shapes that leave a rejection unhandled are reported, the
 * handled ones are not, and the repository's own source passes it.
 */
import assert from "node:assert/strict";
import plugin from "../../scripts/lint/started_promises.ts";
import { ROOT } from "../e2e/helpers.ts";

const lint = (source: string) => Deno.lint.runPlugin(plugin, "src/example.ts", source).map((d) => d.message);

Deno.test("started-promise lint: a promise started before an await that can throw is reported", () => {
  // The shape of fetch_content's repository tier before #32: the lookup was lost when resolveIds threw.
  const [message] = lint(`async function f() {
    const lookup = lookupRecord();
    const ids = await resolveIds();
    return { ids, record: await lookup };
  }`);
  assert.match(message, /'lookup' is started here, but the function can leave at line 3/);
  assert.equal(lint(`async function f() { const p = g(); if (x) return 1; return await p; }`).length, 1);
  assert.equal(
    lint(`async function f() { const p = new Promise((ok, no) => h(ok, no)); await y(); await p; }`).length,
    1,
  );
  assert.equal(lint(`function f() { const ps = [a(), b()]; void p.then(() => 1); }`).length, 1);
  assert.equal(lint(`setTimeout(async () => { await g(); }, 1);`).length, 1);
});

Deno.test("started-promise lint: promises awaited together, handled first or never rejecting pass", () => {
  for (
    const source of [
      `async function f() { const [a, b] = await Promise.all([g(), h()]); }`,
      `async function f() { const p = g(); return await p; }`,
      `async function f() { const p = g().catch(() => undefined); await h(); await p; }`,
      `async function f() { const p = new Promise((resolve) => setTimeout(resolve, 1)); await h(); await p; }`,
      `async function f() { const n = count(); await h(); return n + 1; }`,
      `async function f() { const p = g(); await Promise.all([p, h()]); }`,
      `function f() { void g().then(() => 1).catch(() => 2); }`,
      `setTimeout(async () => { try { await g(); } catch { /* logged */ } }, 1);`,
    ]
  ) assert.deepEqual(lint(source), [], source);
});

Deno.test("started-promise lint: deno.json runs it, and the source passes it", async () => {
  const config = JSON.parse(await Deno.readTextFile(`${ROOT}deno.json`));
  assert.ok(config.lint.plugins.includes("./scripts/lint/started_promises.ts"));
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["lint", "src/", "main.ts", "serve.ts", "mod.ts", "scripts/"],
    cwd: ROOT,
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(output.stderr) + new TextDecoder().decode(output.stdout);
  assert.doesNotMatch(text, /science\/started-promise-awaited/);
});
