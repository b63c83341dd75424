/**
 * EFetch rettype=medline (the MEDLINE/nbib tagged text) → one text block per PMID. Records are separated
 * by blank lines and start with a `PMID- ` line; continuation lines are indented six spaces.
 */
export interface MedlineRecord {
  pmid: string;
  text: string;
}

export function splitMedlineText(body: string): MedlineRecord[] {
  const out: MedlineRecord[] = [];
  for (const block of body.replace(/\r\n?/g, "\n").split(/\n[ \t]*\n/)) {
    const trimmed = block.replace(/^\n+|\s+$/g, "");
    const pmid = /^PMID- *(\d+)/m.exec(trimmed)?.[1];
    if (pmid) out.push({ pmid, text: trimmed });
  }
  return out;
}
