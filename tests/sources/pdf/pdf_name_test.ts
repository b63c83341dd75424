import assert from "node:assert/strict";
import { ToolError } from "../../../src/core/errors.ts";
import { assertPdfName, pdfNameProblem } from "../../../src/sources/pdf/pdf_name.ts";
import { HOSTILE_NAMES, ORDINARY_NAMES } from "./hostile_names.ts";

Deno.test("pdfNameProblem refuses every hostile name", () => {
  assert.ok(HOSTILE_NAMES.length >= 40);
  const accepted = HOSTILE_NAMES.filter((name) => pdfNameProblem(name) === undefined);
  assert.deepEqual(accepted, []);
});

Deno.test("pdfNameProblem accepts ordinary file names", () => {
  for (const name of ORDINARY_NAMES) assert.equal(pdfNameProblem(name), undefined, name);
});

Deno.test("pdfNameProblem says which rule a name breaks", () => {
  assert.match(pdfNameProblem("a/b")!, /not a path/);
  assert.match(pdfNameProblem("..")!, /'\.\.'/);
  assert.match(pdfNameProblem("C:x")!, /drive letters/);
  assert.match(pdfNameProblem("%2fx")!, /percent-encoded/);
  assert.match(pdfNameProblem("x\u0000")!, /control characters/);
  assert.match(pdfNameProblem("．．x")!, /look-alikes/);
  assert.match(pdfNameProblem("NUL")!, /device name/);
});

Deno.test("assertPdfName throws INVALID_INPUT naming pdf_name and pointing at list_pdfs", () => {
  assert.throws(() => assertPdfName("../secret"), (error: unknown) => {
    assert.ok(error instanceof ToolError);
    assert.equal(error.code, "INVALID_INPUT");
    assert.match(error.message, /'pdf_name'/);
    assert.match(error.recoveryHint, /list_pdfs/);
    assert.deepEqual(error.invalidInput, { field: "pdf_name", value: "../secret" });
    return true;
  });
});
