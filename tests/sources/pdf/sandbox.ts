/**
 * A real temporary layout for confinement tests:
 *   <base>/files/paper.pdf        the PDF_ROOT, with one searchable PDF (the shipped sample paper)
 *   <base>/files2/secret.pdf      a sibling folder sharing the root's prefix
 *   <base>/outside/secret.pdf     a folder next to the root
 * Both secret.pdf files are a PDF whose text contains SECRET_WORD, which no PDF in the root contains.
 */

export const SECRET_WORD = "Lorem ipsum";

export interface Sandbox {
  base: string;
  root: string;
  secret: string;
  paperBytes: Uint8Array;
  remove(): Promise<void>;
}

const PAPER = new URL("../../../files/dvt_prophylaxis_review.pdf", import.meta.url);
const SECRET = new URL("../../../fixtures/pdf/pypdf__multicolumn.pdf", import.meta.url);

export async function sandbox(): Promise<Sandbox> {
  const base = await Deno.realPath(await Deno.makeTempDir({ prefix: "pdf_confine_" }));
  const root = `${base}/files`;
  for (const dir of [root, `${base}/files2`, `${base}/outside`]) await Deno.mkdir(dir);
  const paperBytes = await Deno.readFile(PAPER);
  await Deno.writeFile(`${root}/paper.pdf`, paperBytes);
  await Deno.copyFile(SECRET, `${base}/files2/secret.pdf`);
  await Deno.copyFile(SECRET, `${base}/outside/secret.pdf`);
  return {
    base,
    root,
    secret: `${base}/outside/secret.pdf`,
    paperBytes,
    remove: () => Deno.remove(base, { recursive: true }),
  };
}
