/**
 * The confinement suite over MCP: hostile names and symlink tricks against a real temporary PDF_ROOT
 * with a "secret" PDF (containing SECRET_WORD) next to it. Zero escapes: no call may ever find the word.
 */
import assert from "node:assert/strict";
import { HOSTILE_NAMES } from "../../sources/pdf/hostile_names.ts";
import { sandbox, SECRET_WORD } from "../../sources/pdf/sandbox.ts";
import { pdfClient } from "./pdf_client.ts";

/** Builds the symlink and special-file cases inside the root; returns the names to try. */
async function plantTraps(base: string, root: string): Promise<string[]> {
  await Deno.symlink(`${base}/outside/secret.pdf`, `${root}/out_absolute.pdf`);
  await Deno.symlink("../outside/secret.pdf", `${root}/out_relative.pdf`);
  await Deno.symlink("../files2/secret.pdf", `${root}/out_sibling.pdf`);
  await Deno.symlink("out_absolute.pdf", `${root}/out_chain.pdf`);
  await Deno.symlink(`${base}/outside`, `${root}/dir_link.pdf`);
  await Deno.symlink("/dev/zero", `${root}/device.pdf`);
  await Deno.symlink("/etc/passwd", `${root}/passwd.pdf`);
  await Deno.mkdir(`${root}/folder.pdf`);
  await Deno.symlink("loop_b.pdf", `${root}/loop_a.pdf`);
  await Deno.symlink("loop_a.pdf", `${root}/loop_b.pdf`);
  await Deno.symlink("dangling_target.pdf", `${root}/dangling.pdf`);
  const fifo = await new Deno.Command("mkfifo", { args: [`${root}/pipe.pdf`] }).output();
  assert.ok(fifo.success, "mkfifo is needed for the named-pipe case");
  return [
    "out_absolute",
    "out_relative",
    "out_sibling",
    "out_chain",
    "dir_link",
    "device",
    "passwd",
    "folder",
    "loop_a",
    "dangling",
    "pipe",
    "secret",
  ];
}

Deno.test("search_pdf never reads outside PDF_ROOT: 0 escapes over hostile names and symlinks", async (t) => {
  const box = await sandbox();
  const traps = await plantTraps(box.base, box.root);
  const pdf = await pdfClient(box.root);
  const outcomes: string[] = [];
  try {
    await t.step("the sandbox is live: a legitimate name is searched", async () => {
      const r = await pdf.search({ pdf_name: "paper", query: "heparin" });
      assert.equal(r.query_exists, true);
    });

    await t.step(`${HOSTILE_NAMES.length} path-like names are INVALID_INPUT naming pdf_name`, async () => {
      for (const name of HOSTILE_NAMES) {
        const r = await pdf.search({ pdf_name: name, query: SECRET_WORD });
        assert.equal(r.isError, true, JSON.stringify(name));
        assert.equal(r.error?.code, "INVALID_INPUT", JSON.stringify(name));
        assert.equal(r.error?.invalid_input?.field, "pdf_name");
        outcomes.push(JSON.stringify(r));
      }
    });

    await t.step(`${traps.length} symlink, device, pipe and folder cases are file_exists:false`, async () => {
      for (const name of traps) {
        const r = await pdf.search({ pdf_name: name, query: SECRET_WORD });
        assert.equal(r.isError, undefined, name);
        assert.equal(r.file_exists, false, name);
        assert.equal(r.query_exists, false, name);
        outcomes.push(JSON.stringify(r));
      }
    });

    await t.step("no outcome carries the secret's text", () => {
      assert.ok(HOSTILE_NAMES.length + traps.length >= 40);
      assert.equal(outcomes.length, HOSTILE_NAMES.length + traps.length);
      const escapes = outcomes.filter((o) => /lorem/i.test(o) || /"query_exists":true/.test(o));
      assert.deepEqual(escapes, []);
    });

    await t.step("list_pdfs shows only the legitimate PDF", async () => {
      const listed = await pdf.client.callTool({ name: "list_pdfs", arguments: {} });
      const names = (listed.structuredContent as { pdfs: { name: string }[] }).pdfs.map((p) => p.name);
      assert.deepEqual(names, ["paper"]);
    });
  } finally {
    await pdf.close();
    await box.remove();
  }
});
