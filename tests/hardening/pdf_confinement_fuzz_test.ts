/**
 * PDF name confinement under fuzzing, through MCP: PDF_ROOT is a temp folder holding one harmless PDF
 * (lorem ipsum), a symlink pointing outside and a sub-folder; the sample paper, which contains
 * "heparin", sits next to the root and in a sibling folder. Generated names are glued from traversal
 * fragments (.., separators, encodings, look-alikes, NUL, the absolute paths of the planted files). The
 * query is always "heparin": any hit means a name escaped the root.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { join } from "node:path";
import { ALL_TOOLS } from "../../src/catalog.ts";
import { hostileString } from "./arbitraries.ts";
import { fuzzSettings, namedFields } from "./fuzz_check.ts";
import { openFuzzWorld } from "./fuzz_world.ts";

const SETTINGS = fuzzSettings(8);
const RUNS = SETTINGS.numRuns;
const SEARCH = ALL_TOOLS.find((t) => t.name === "search_pdf");
const LIST = ALL_TOOLS.find((t) => t.name === "list_pdfs");

async function plant(): Promise<{ dir: string; root: string }> {
  const dir = await Deno.makeTempDir({ prefix: "pdf_confinement_" });
  const root = join(dir, "root");
  const sample = new URL("../../files/dvt_prophylaxis_review.pdf", import.meta.url);
  await Deno.mkdir(join(root, "sub"), { recursive: true });
  await Deno.mkdir(join(dir, "secret"));
  await Deno.copyFile(sample, join(dir, "outside.pdf"));
  await Deno.copyFile(sample, join(dir, "secret", "escape.pdf"));
  await Deno.copyFile(sample, join(root, "sub", "nested.pdf"));
  await Deno.copyFile(new URL("../../fixtures/pdf/pypdf__multicolumn.pdf", import.meta.url), join(root, "inside.pdf"));
  await Deno.symlink(join(dir, "outside.pdf"), join(root, "link.pdf"));
  await Deno.symlink(join(dir, "secret"), join(root, "secretdir"));
  return { dir, root };
}

function nameArbitrary(dir: string): fc.Arbitrary<string> {
  const fragments = [
    "..",
    ".",
    "/",
    "\\",
    "outside",
    "secret",
    "escape",
    "link",
    "secretdir",
    "sub",
    "nested",
    "inside",
    ".pdf",
    "%2e",
    "%2f",
    "%5c",
    "%252e",
    "%00",
    "\u0000",
    "\uff0f",
    "\uff0e",
    "\u2215",
    ":",
    "C:",
    "~",
    "file://",
    " ",
    dir,
    join(dir, "outside"),
    join(dir, "secret", "escape"),
  ];
  return fc.oneof(
    {
      weight: 4,
      arbitrary: fc.array(fc.constantFrom(...fragments), { minLength: 1, maxLength: 6 }).map((p) => p.join("")),
    },
    { weight: 1, arbitrary: hostileString },
  ).filter((name) => name.length > 0 && name.length <= 255);
}

Deno.test({
  name: `pdf confinement: ${RUNS} fuzzed pdf_name values never reach a PDF outside PDF_ROOT`,
  ignore: !SEARCH || !LIST,
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async (t) => {
    const { dir, root } = await plant();
    const world = await openFuzzWorld({ PDF_ROOT: root });
    try {
      await t.step("the planted control cases behave: inside is found, link and nested are not", async () => {
        const call = (pdf_name: string) =>
          world.client.callTool({ name: "search_pdf", arguments: { pdf_name, query: "lorem" } });
        const inside = (await call("inside")).structuredContent as { file_exists: boolean; query_exists: boolean };
        assert.deepEqual([inside.file_exists, inside.query_exists], [true, true]);
        for (const name of ["link", "nested", "secretdir", "outside"]) {
          const r = await call(name);
          assert.equal((r.structuredContent as { file_exists?: boolean }).file_exists, false, name);
        }
      });

      await t.step("list_pdfs lists only the PDF that really lies inside", async () => {
        const r = await world.client.callTool({ name: "list_pdfs", arguments: {} });
        const text = JSON.stringify(r.structuredContent);
        assert.match(text, /inside/);
        for (const name of ["link", "nested", "outside", "escape"]) assert.doesNotMatch(text, new RegExp(`"${name}`));
      });

      await t.step("no fuzzed name finds 'heparin' (which only exists outside the root)", async () => {
        const outcomes = { refused: 0, missing: 0, inside: 0 };
        const details = await fc.check(
          fc.asyncProperty(nameArbitrary(dir), async (pdf_name) => {
            const r = await world.client.callTool({ name: "search_pdf", arguments: { pdf_name, query: "heparin" } });
            const s = r.structuredContent as Record<string, unknown>;
            if (r.isError) {
              const error = s.error as { code: string; invalid_input?: unknown };
              assert.equal(error.code, "INVALID_INPUT", `${JSON.stringify(pdf_name)}: ${JSON.stringify(error)}`);
              assert.deepEqual(namedFields(error.invalid_input), ["pdf_name"]);
              outcomes.refused++;
              return;
            }
            assert.equal(s.query_exists, false, `ESCAPE: ${JSON.stringify(pdf_name)} reached a PDF outside the root`);
            if (s.file_exists) outcomes.inside++;
            else outcomes.missing++;
          }),
          { ...SETTINGS, endOnFailure: true },
        );
        if (details.failed) assert.fail(`seed ${details.seed}: ${String(details.errorInstance).slice(0, 500)}`);
        console.log(`pdf confinement: ${JSON.stringify(outcomes)}`);
        assert.ok(outcomes.refused > 0);
      });
    } finally {
      await world.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});
