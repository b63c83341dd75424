/** The library folder: one collision-free name per id, sidecars found by any id, writes that stay inside. */
import assert from "node:assert/strict";
import fc from "fast-check";
import {
  findSaved,
  keepPaper,
  libraryName,
  type LibraryRecord,
  readRecord,
} from "../../../src/sources/pdf/paper_library.ts";
import { pdfNameProblem } from "../../../src/sources/pdf/pdf_name.ts";

function record(name: string, ids: LibraryRecord["ids"]): LibraryRecord {
  return {
    name,
    ids,
    title: "T",
    authors: ["A B"],
    year: 2020,
    venue: "V",
    source_url: "https://arxiv.org/pdf/1111.2011v2",
    licence: null,
    retrieved: "2026-03-01",
    pages: 1,
    bytes: 4,
  };
}

Deno.test("library names follow the issue's examples and stay valid pdf_names", () => {
  assert.equal(libraryName("arxiv", "2501.11120"), "arxiv-2501.11120");
  assert.equal(libraryName("arxiv", "2501.11120v3"), "arxiv-2501.11120");
  assert.equal(libraryName("arxiv", "hep-th/9901001v1"), "arxiv-hep-th_9901001");
  assert.equal(libraryName("pmid", "31452104"), "pmid-31452104");
  assert.equal(libraryName("doi", "10.1038/srep16696"), "doi-10.1038_srep16696");
  assert.equal(libraryName("doi", "10.1038/SREP16696"), "doi-10.1038_srep16696", "DOIs compare case-insensitively");
  assert.equal(libraryName("pmcid", "PMC3299399"), "pmcid-PMC3299399");
  assert.equal(libraryName("openalex", "W2741809807"), "openalex-W2741809807");
});

Deno.test("two different DOIs never share a name, and every name is a valid pdf_name", () => {
  // The characters that make DOIs hard: separators, dots, escapes of our own rule, percent signs, non-ASCII.
  const doiChar = fc.constantFrom(..."ab1./_~-%:\\ .é<>()[];".split(""));
  const doi = fc.array(doiChar, { minLength: 1, maxLength: 30 }).map((cs) => `10.1000/${cs.join("")}`);
  fc.assert(
    fc.property(doi, doi, (a, b) => {
      const [na, nb] = [libraryName("doi", a), libraryName("doi", b)];
      assert.equal(pdfNameProblem(na), undefined, `${a} → ${na}`);
      if (a.toLowerCase() !== b.toLowerCase()) assert.notEqual(na, nb, `${a} and ${b}`);
    }),
    { numRuns: 2000 },
  );
  assert.notEqual(libraryName("doi", "10.1/a_b"), libraryName("doi", "10.1/a/b"));
  assert.equal(pdfNameProblem(libraryName("doi", "10.1/../../etc/passwd")), undefined);
  assert.ok(libraryName("doi", `10.1/${"x".repeat(400)}`).length <= 160, "long DOIs are cut with a hash");
});

Deno.test("a saved paper is found again by any id its sidecar records", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const name = libraryName("doi", "10.1103/PhysRevB.85.115117");
    await keepPaper(
      dir,
      record(name, { doi: "10.1103/PhysRevB.85.115117", arxiv: "1111.2011v2" }),
      new TextEncoder().encode("%PDF"),
    );
    assert.equal((await findSaved(dir, { arxiv: "1111.2011" }))?.name, name, "by its arXiv id, version aside");
    assert.equal((await findSaved(dir, { doi: "10.1103/physrevb.85.115117" }))?.name, name);
    assert.equal(await findSaved(dir, { pmid: "1" }), undefined);
    assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name).sort(), [`${name}.json`, `${name}.pdf`]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("writing a paper never writes outside the library: a link planted at its name is replaced, not followed", async () => {
  const root = await Deno.makeTempDir();
  try {
    const dir = `${root}/library`;
    const outside = `${root}/outside.pdf`;
    await Deno.mkdir(dir);
    await Deno.writeTextFile(outside, "keep me");
    await Deno.symlink(outside, `${dir}/pmid-1.pdf`);
    await keepPaper(dir, record("pmid-1", { pmid: "1" }), new TextEncoder().encode("%PDF-1.4"));
    assert.equal(await Deno.readTextFile(outside), "keep me", "the link's target is untouched");
    assert.equal((await Deno.lstat(`${dir}/pmid-1.pdf`)).isSymlink, false);
    assert.equal((await readRecord(dir, "pmid-1"))?.ids.pmid, "1");
    await assert.rejects(
      () => keepPaper(dir, record("../escape", {}), new Uint8Array(1)),
      /library name .* must not contain|is a file name/,
    );
    assert.deepEqual([...Deno.readDirSync(root)].map((e) => e.name).sort(), ["library", "outside.pdf"]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
