/**
 * The permission sets of deno.json, as they are at test time, confine any code run under them: a probe
 * (sandbox_probe.ts) started with `deno run -P=<set>` may read only the set's read paths, write only
 * inside its write dirs, read only its listed variables, reach only its hosts, and neither spawn processes
 * nor query the system. The network attempt targets a loopback listener of this test, which must see no
 * connection. Expectations come from the set itself, so the test follows whatever deno.json grants.
 */
import assert from "node:assert/strict";
import type { Attempt, Verdict } from "./sandbox_probe.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const denoJson = JSON.parse(await Deno.readTextFile(`${ROOT}deno.json`));

interface PermissionSet {
  read?: string[] | boolean;
  write?: string[] | boolean;
  net?: string[] | boolean;
  env?: string[] | boolean;
}

const SETS = ["stdio", "http", "cli"].filter((name) => denoJson.permissions?.[name]);
const granted = (list: string[] | boolean | undefined, item: string) =>
  list === true || (Array.isArray(list) && list.includes(item));

async function probe(set: string, attempts: Attempt[]): Promise<Verdict[]> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", `-P=${set}`, "tests/hardening/sandbox_probe.ts", JSON.stringify(attempts)],
    cwd: ROOT,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(output.stdout);
  assert.equal(output.code, 0, new TextDecoder().decode(output.stderr));
  return text.trim().split("\n").map((line) => JSON.parse(line));
}

for (const name of SETS) {
  const set = denoJson.permissions[name] as PermissionSet;
  Deno.test({
    name: `permission set '${name}' confines code run under it: files, env, network, subprocesses`,
    sanitizeResources: false,
    sanitizeOps: false,
    fn: async () => {
      const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
      const port = (listener.addr as Deno.NetAddr).port;
      let connections = 0;
      const accepting = (async () => {
        for await (const conn of listener) {
          connections++;
          conn.close();
        }
      })();
      const tag = `.sandbox-probe-${crypto.randomUUID().slice(0, 8)}`;
      const writeDirs = Array.isArray(set.write) ? set.write : [];
      const createdTopDirs = [];
      for (const dir of writeDirs) {
        try {
          await Deno.stat(`${ROOT}${dir}`);
        } catch {
          createdTopDirs.push(dir);
        }
      }
      const readDirs = Array.isArray(set.read) ? set.read : [];
      const attempts: [Attempt, boolean][] = [
        [{ op: "read", path: "deno.json" }, set.read === true],
        // The server's own modules are readable (toolsets load from src/ on first call); nothing else of the clone.
        [{ op: "read", path: "src/config.ts" }, set.read === true || readDirs.includes("./src")],
        [{ op: "read", path: "scripts/gen_docs.ts" }, set.read === true],
        [{ op: "read", path: "/etc/hostname" }, set.read === true],
        ...readDirs.filter((d) => d === "./files").map((d) => [{ op: "readDir", path: d }, true] as [Attempt, boolean]),
        [{ op: "write", path: "./files/sandbox-probe.txt" }, set.write === true],
        [{ op: "write", path: "./src/sandbox-probe.txt" }, set.write === true],
        [{ op: "write", path: `/tmp/${tag}.txt` }, set.write === true],
        ...writeDirs.flatMap((d) =>
          [
            [{ op: "mkdir", path: `${d}/${tag}` }, true],
            [{ op: "write", path: `${d}/${tag}/probe.txt` }, true],
            [{ op: "remove", path: `${d}/${tag}/probe.txt` }, true],
            [{ op: "remove", path: `${d}/${tag}` }, true],
          ] as [Attempt, boolean][]
        ),
        [{ op: "env", name: "HOME" }, granted(set.env, "HOME")],
        [{ op: "env", name: "PATH" }, granted(set.env, "PATH")],
        [{ op: "envAll" }, set.env === true],
        ...(Array.isArray(set.env) ? set.env : []).map((v) => [{ op: "env", name: v }, true] as [Attempt, boolean]),
        [{ op: "fetch", url: `http://127.0.0.1:${port}/` }, granted(set.net, `127.0.0.1:${port}`)],
        [{ op: "listen", port }, granted(set.net, `127.0.0.1:${port}`)],
        [{ op: "run", command: "true" }, false],
        [{ op: "sys" }, false],
      ];
      try {
        const verdicts = await probe(name, attempts.map(([a]) => a));
        assert.equal(verdicts.length, attempts.length);
        for (const [i, [attempt, allowed]] of attempts.entries()) {
          const v = verdicts[i];
          const shown = `${name}: ${JSON.stringify(attempt)} → ${v.ok ? "allowed" : `${v.error}: ${v.message}`}`;
          const refused = !v.ok && /NotCapable/.test(`${v.error} ${v.message}`);
          // Granted network attempts may still fail (the listener hangs up, the port is taken): not refused is enough.
          if (allowed && (attempt.op === "fetch" || attempt.op === "listen")) assert.ok(!refused, shown);
          else if (allowed) assert.ok(v.ok, shown);
          else assert.ok(refused, shown);
        }
        if (!granted(set.net, `127.0.0.1:${port}`)) assert.equal(connections, 0, "a refused fetch still connected");
      } finally {
        listener.close();
        await accepting.catch(() => {});
        // Only an empty folder this test created goes: another test may be writing there meanwhile.
        for (const dir of createdTopDirs) await Deno.remove(`${ROOT}${dir}`).catch(() => {});
      }
    },
  });
}
