/** Writes a PDF file from its objects' bodies: header, numbered objects, cross-reference table, trailer. */

/** One object's body, in pieces: text (Latin-1) and binary stream data. Object 1 must be the catalog. */
export type PdfObject = (string | Uint8Array)[];

const latin1 = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0));

export function writePdf(objects: PdfObject[], version = "1.4"): Uint8Array {
  const parts: Uint8Array[] = [];
  const offsets: number[] = [];
  let size = 0;
  const push = (piece: string | Uint8Array) => {
    const bytes = typeof piece === "string" ? latin1(piece) : piece;
    parts.push(bytes);
    size += bytes.length;
  };
  push(`%PDF-${version}\n`);
  objects.forEach((body, i) => {
    offsets.push(size);
    push(`${i + 1} 0 obj\n`);
    body.forEach(push);
    push("\nendobj\n");
  });
  const xref = size;
  push(`xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`);
  for (const at of offsets) push(`${String(at).padStart(10, "0")} 00000 n \n`);
  push(`trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`);
  const out = new Uint8Array(size);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
