import assert from "node:assert/strict";
import { listPdfFiles, locatePdf, readPdfBytes } from "../../../src/sources/pdf/pdf_files.ts";
import { PdfExtractionError } from "../../../src/sources/pdf/types.ts";
import { type Sandbox, sandbox } from "./sandbox.ts";

async function withSandbox(fn: (box: Sandbox) => Promise<void>): Promise<void> {
  const box = await sandbox();
  try {
    await fn(box);
  } finally {
    await box.remove();
  }
}

Deno.test("locatePdf finds <root>/<name>.pdf by its real path", () =>
  withSandbox(async (box) => {
    const file = await locatePdf(box.root, "paper");
    assert.equal(file?.name, "paper");
    assert.equal(file?.path, await Deno.realPath(`${box.root}/paper.pdf`));
    assert.equal(file?.size, box.paperBytes.length);
  }));

Deno.test("locatePdf accepts a name given with its .pdf extension", () =>
  withSandbox(async (box) => {
    assert.equal((await locatePdf(box.root, "paper.pdf"))?.name, "paper");
    assert.equal((await locatePdf(box.root, "paper.PDF"))?.name, "paper");
  }));

Deno.test("locatePdf returns nothing for names that do not exist", () =>
  withSandbox(async (box) => {
    assert.equal(await locatePdf(box.root, "nope"), undefined);
    assert.equal(await locatePdf(`${box.root}/missing-root`, "paper"), undefined);
  }));

Deno.test("locatePdf refuses symlinks that resolve outside the root", () =>
  withSandbox(async (box) => {
    await Deno.symlink(box.secret, `${box.root}/out_absolute.pdf`);
    await Deno.symlink("../files2/secret.pdf", `${box.root}/out_sibling.pdf`);
    await Deno.symlink("../outside", `${box.root}/out_dir`);
    await Deno.symlink("out_absolute.pdf", `${box.root}/out_chain.pdf`);
    await Deno.symlink("/dev/zero", `${box.root}/device.pdf`);
    for (const name of ["out_absolute", "out_sibling", "out_chain", "device"]) {
      assert.equal(await locatePdf(box.root, name), undefined, name);
    }
  }));

Deno.test("locatePdf accepts symlinks that stay inside the root", () =>
  withSandbox(async (box) => {
    await Deno.mkdir(`${box.root}/sub`);
    await Deno.copyFile(`${box.root}/paper.pdf`, `${box.root}/sub/inner.pdf`);
    await Deno.symlink("sub/inner.pdf", `${box.root}/alias.pdf`);
    const file = await locatePdf(box.root, "alias");
    assert.equal(file?.path, await Deno.realPath(`${box.root}/sub/inner.pdf`));
  }));

Deno.test("locatePdf refuses folders, pipes and symlink loops", () =>
  withSandbox(async (box) => {
    await Deno.mkdir(`${box.root}/folder.pdf`);
    await Deno.symlink("loop_b.pdf", `${box.root}/loop_a.pdf`);
    await Deno.symlink("loop_a.pdf", `${box.root}/loop_b.pdf`);
    const fifo = await new Deno.Command("mkfifo", { args: [`${box.root}/pipe.pdf`] }).output();
    assert.equal(fifo.success, true);
    for (const name of ["folder", "loop_a", "pipe"]) assert.equal(await locatePdf(box.root, name), undefined, name);
  }));

Deno.test("locatePdf works when PDF_ROOT itself is a symlink", () =>
  withSandbox(async (box) => {
    const link = `${box.base}/root_link`;
    await Deno.symlink(box.root, link);
    assert.equal((await locatePdf(link, "paper"))?.name, "paper");
  }));

Deno.test("locatePdf throws INVALID_INPUT before touching the disk for a path-like name", () =>
  withSandbox(async (box) => {
    await assert.rejects(locatePdf(box.root, "../files2/secret"), /'pdf_name'/);
  }));

Deno.test("listPdfFiles lists searchable PDFs only, sorted, without escapes", () =>
  withSandbox(async (box) => {
    await Deno.writeTextFile(`${box.root}/notes.txt`, "not a pdf");
    await Deno.mkdir(`${box.root}/folder.pdf`);
    await Deno.symlink(box.secret, `${box.root}/escape.pdf`);
    await Deno.copyFile(`${box.root}/paper.pdf`, `${box.root}/Another.pdf`);
    await Deno.copyFile(`${box.root}/paper.pdf`, `${box.root}/a..b.pdf`);
    const { files, total, truncated } = await listPdfFiles(box.root);
    assert.deepEqual(files.map((f) => f.name), ["Another", "paper"]);
    assert.equal(total, 2, "the folder, the escaping link and the bad name are not counted");
    assert.equal(truncated, false);
  }));

Deno.test("listPdfFiles counts every PDF and returns the run asked for, past the first 500", () =>
  withSandbox(async (box) => {
    for (let i = 0; i < 520; i++) {
      await Deno.writeFile(`${box.root}/doc${String(i).padStart(3, "0")}.pdf`, box.paperBytes);
    }
    const first = await listPdfFiles(box.root);
    assert.equal(first.files.length, 500);
    assert.equal(first.total, 521);
    assert.equal(first.truncated, true);
    const last = await listPdfFiles(box.root, 500, 100);
    assert.deepEqual(last.files.map((f) => f.name), [
      ...Array.from({ length: 20 }, (_, i) => `doc${500 + i}`),
      "paper",
    ]);
    assert.equal(last.truncated, false);
  }));

Deno.test("listPdfFiles returns the first `max` by name and says when there are more", () =>
  withSandbox(async (box) => {
    await Deno.copyFile(`${box.root}/paper.pdf`, `${box.root}/Another.pdf`);
    const { files, truncated } = await listPdfFiles(box.root, 0, 1);
    assert.deepEqual(files.map((f) => f.name), ["Another"]);
    assert.equal(truncated, true);
  }));

Deno.test("readPdfBytes reads the whole file and refuses more than the byte limit", () =>
  withSandbox(async (box) => {
    const file = (await locatePdf(box.root, "paper"))!;
    assert.deepEqual(await readPdfBytes(file, 10_000_000), box.paperBytes);
    await assert.rejects(readPdfBytes(file, 100), (error: unknown) => {
      assert.ok(error instanceof PdfExtractionError);
      assert.equal(error.reason, "too_large");
      assert.match(error.message, /over the limit of 100 bytes \(PDF_MAX_BYTES\)/);
      return true;
    });
  }));
