/**
 * The README's "Keep papers in a library" commands, run as written against the mock upstream (its base
 * URLs in the environment, as `deno task mock` prints them): find, save, list, search, and the page drawn
 * to page.png. The library is a folder of this test inside ./library (LIBRARY_DIR, which the shipped sets
 * may write), so a user's saved papers and other tests' listings are untouched; it and page.png are removed.
 */
import assert from "node:assert/strict";
import { startMockUpstream } from "../../scripts/mock_upstream.ts";
import { CHILD_LIBRARY_DIR } from "../e2e/helpers.ts";
import { ROOT, run, taskArgs } from "./helpers.ts";

const README = await Deno.readTextFile(`${ROOT}README.md`);

function libraryBlock(): string[] {
  const from = README.indexOf("### Keep papers in a library\n");
  assert.ok(from >= 0, "README has the library section");
  const block = /```sh\n([\s\S]*?)```/.exec(README.slice(from))!;
  return block[1].trim().split("\n");
}

/** POSIX-shell words of one command line (single quotes, as the block uses them). */
function words(line: string): string[] {
  return [...line.matchAll(/'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2]);
}

function names(dir: string): Set<string> {
  try {
    return new Set([...Deno.readDirSync(dir)].map((e) => e.name));
  } catch {
    return new Set();
  }
}

Deno.test("README: the library commands run as written against the mock", async () => {
  const library = `${CHILD_LIBRARY_DIR}-readme`;
  const hadParent = names(ROOT).has("library");
  const mock = await startMockUpstream({ rates: false });
  try {
    const lines = libraryBlock();
    assert.equal(lines.length, 5);
    const outputs: string[] = [];
    for (const line of lines) {
      const [deno, first, second, ...rest] = words(line);
      assert.equal(deno, "deno", line);
      const argv = first === "task" ? [...await taskArgs(second), ...rest] : [first, second, ...rest];
      const outcome = await run(argv, { env: { ...mock.env, LIBRARY_DIR: library }, timeoutMs: 120_000 });
      assert.equal(outcome.code, 0, `${line}\n${outcome.stderr}`);
      outputs.push(outcome.stdout);
    }
    assert.equal(JSON.parse(outputs[1]).name, "arxiv-1111.2011");
    assert.ok(names(library).has("arxiv-1111.2011.json"));
    assert.match(outputs[2], /"name": "arxiv-1111\.2011"/);
    assert.match(outputs[3], /arxiv-1111\.2011/);
    const png = await Deno.readFile(`${ROOT}page.png`);
    assert.deepEqual([...png.subarray(1, 4)], [0x50, 0x4e, 0x47]);
  } finally {
    await mock.close();
    await Deno.remove(`${ROOT}page.png`).catch(() => {});
    await Deno.remove(library, { recursive: true }).catch(() => {});
    if (!hadParent) await Deno.remove(`${ROOT}library`).catch(() => {}); // only when empty
  }
});
