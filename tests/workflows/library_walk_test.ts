/**
 * The paper-library loop (#38), walked as a model and as a user would: find a paper (search_papers), save
 * its open PDF (save_paper), see it listed (list_pdfs), search inside it with the other PDFs (search_pdfs),
 * and look at the page a passage names (render_pdf_page) — over MCP against the mock upstream, counting the
 * characters of text the model reads, and from the CLI, one process per step under the shipped `cli`
 * permission set, whose start-up check refuses a library outside ./library and prints the command that
 * grants it (the walk runs that command).
 *
 * Characters read over MCP (closing note): search_papers 1,448 + save_paper 504 + list_pdfs 364 + search_pdfs
 * 1,008 + render_pdf_page 5,762 (the page's text and captions; the PNG travels as an image block) = 9,086;
 * bound 12,000.
 */
import assert from "node:assert/strict";
import { startMockUpstream } from "../../scripts/mock_upstream.ts";
import { runDeno } from "../e2e/helpers.ts";
import { type CallResult, withTools } from "../helpers/tool_harness.ts";

type Json = Record<string, unknown>;

const PDF_ROOT = new URL("../../files", import.meta.url).pathname;
const BOUND = 12_000;

const data = (r: CallResult) => r.structuredContent as Json;
const text = (r: CallResult) => r.content.filter((c) => c.type === "text").map((c) => c.text).join("");

Deno.test(`the paper-library walk over MCP chains its ids and reads at most ${BOUND} characters`, async () => {
  const library = await Deno.makeTempDir({ prefix: "library-walk-" });
  try {
    await withTools({
      env: { SCIENCE_MCP_TOOLSETS: "papers,pdf", PDF_ROOT, LIBRARY_DIR: library },
      driveClock: true,
    }, async (h) => {
      let read = 0;
      const step = async (tool: string, args: Json) => {
        const answer = await h.call(tool, args);
        assert.equal(answer.isError, undefined, `${tool} ${JSON.stringify(args)}: ${text(answer)}`);
        read += text(answer).length;
        return answer;
      };
      const found = await step("search_papers", {
        query: "quantum criticality Bethe lattice",
        source: "arxiv",
        count: 2,
      });
      const id = (data(found).papers as { id: string }[])[0].id;
      assert.equal(id, "1111.2011v2");

      const saved = await step("save_paper", { id });
      const name = data(saved).name as string;
      assert.equal(name, "arxiv-1111.2011");
      assert.match(text(saved), /^# Saved: arxiv-1111\.2011/);

      const listed = await step("list_pdfs", {});
      assert.match(text(listed), /- arxiv-1111\.2011 — 8 pages.*\n {2}library: Quantum Criticality for Extended Nodes/);
      assert.match(text(listed), /- dvt_prophylaxis_review — /, "PDF_ROOT is listed beside the library");

      const searched = await step("search_pdfs", { query: "Bethe lattice" });
      const passage = /^### (arxiv-1111\.2011)[^\n]*\n(?:[^\n]*\n)*?- p\. (\d+) \(/m.exec(text(searched));
      assert.ok(passage, `search_pdfs names the library paper and each passage's page:\n${text(searched)}`);

      const page = await step("render_pdf_page", { pdf_name: passage[1], page: Number(passage[2]), max_side: 1000 });
      const image = page.content.find((c) => c.type === "image") as unknown as { data: string; mimeType: string };
      assert.equal(image.mimeType, "image/png");
      const png = Uint8Array.fromBase64(image.data);
      assert.deepEqual([...png.subarray(1, 4)], [0x50, 0x4e, 0x47]);
      assert.ok(png.length <= 2 * 1024 * 1024);
      assert.match(text(page), new RegExp(`page ${passage[2]} of 8`));
      assert.match(text(page), /Bethe/);

      assert.ok(read <= BOUND, `the library walk read ${read} characters, over its bound of ${BOUND}`);
    });
  } finally {
    await Deno.remove(library, { recursive: true });
  }
});

Deno.test("the paper-library walk from the CLI: the cli set refuses a library outside ./library and names the grant; with it, find → save → list → search → page", async () => {
  const library = await Deno.makeTempDir({ prefix: "library-cli-" });
  const mock = await startMockUpstream({ rates: false });
  try {
    const env = { ...mock.env, LIBRARY_DIR: library };
    const refused = await runDeno(["run", "-P=cli", "main.ts", "call", "save_paper", "--id", "1111.2011v2"], env);
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /LIBRARY_DIR=\S+ needs (read|write) access to \S+, which this run does not have/);
    assert.deepEqual([...Deno.readDirSync(library)], [], "nothing was written outside ./library");
    // The grants as the refusals print them: save_paper's names the library's write access, list_pdfs's the reads
    // (PDF_ROOT too). The walk runs with both, as printed.
    const grant = async (tool: string, args: string[]) => {
      const refusal = await runDeno(["run", "-P=cli", "main.ts", "call", tool, ...args], env);
      const fix = new RegExp(`start it with: deno run ((?:-q )?-P=cli .*) main\\.ts call ${tool}`).exec(refusal.stderr);
      assert.ok(fix, refusal.stderr);
      return fix[1].split(" ");
    };
    const flags = mergeFlags([...await grant("save_paper", ["--id", "1111.2011v2"]), ...await grant("list_pdfs", [])]);

    const call = async (tool: string, args: Json) => {
      const { code, stdout, stderr } = await runDeno(
        ["run", ...flags, "main.ts", "call", tool, JSON.stringify(args)],
        env,
      );
      assert.equal(code, 0, `${tool}: ${stderr}`);
      return JSON.parse(stdout) as Json;
    };
    const found = await call("search_papers", { query: "quantum criticality", source: "arxiv", count: 1 });
    const id = (found.papers as { id: string }[])[0].id;
    const saved = await call("save_paper", { id });
    assert.equal(saved.name, "arxiv-1111.2011");
    assert.equal((await call("save_paper", { id })).saved, false, "a second process finds it saved");
    const listed = await call("list_pdfs", {});
    const entry = (listed.pdfs as Json[]).find((p) => p.name === saved.name);
    assert.deepEqual(entry?.ids, { doi: "10.1103/PhysRevB.85.115117", arxiv: "1111.2011v2" });
    const searched = await call("search_pdfs", { query: "Bethe lattice" });
    const file = (searched.files as { pdf_name: string; passages: { page: number }[] }[])
      .find((f) => f.pdf_name === saved.name);
    assert.ok(file?.passages.length, JSON.stringify(searched).slice(0, 500));
    const page = await call("render_pdf_page", { pdf_name: saved.name, page: file.passages[0].page, max_side: 600 });
    assert.equal((page.image as Json).mimeType, "image/png");
    assert.ok(Math.max((page.image as Json).width as number, (page.image as Json).height as number) <= 600);
  } finally {
    await mock.close();
    await Deno.remove(library, { recursive: true });
  }
});

/** Flags of several printed grants as one command's: each `--allow-x=a,b` once, with every value either named. */
function mergeFlags(flags: string[]): string[] {
  const lists = new Map<string, Set<string>>();
  const plain: string[] = [];
  for (const flag of flags) {
    const m = /^(--allow-[a-z]+)=(.*)$/.exec(flag);
    if (!m) {
      if (!plain.includes(flag)) plain.push(flag);
      continue;
    }
    const set = lists.get(m[1]) ?? new Set<string>();
    for (const value of m[2].split(",")) set.add(value);
    lists.set(m[1], set);
  }
  return [...plain, ...[...lists].map(([flag, values]) => `${flag}=${[...values].join(",")}`)];
}
