/**
 * RIS record from a CSL item: `TAG  - value` lines closed by `ER  - `, typed by the table in
 * ./from/crossref.ts (JOUR, CONF, BOOK, CHAP, UNPB, DATA, RPRT, THES). Tags follow the RIS specification
 * as citation-js reads it: a proceedings title is C3 and the conference T2 in CONF; an article number is C7.
 */
import type { CslItem, CslName } from "./csl.ts";

const TYPES: Record<CslItem["type"], string> = {
  "article-journal": "JOUR",
  "paper-conference": "CONF",
  "book": "BOOK",
  "chapter": "CHAP",
  "entry-encyclopedia": "ENCYC",
  "article": "UNPB",
  "post-weblog": "BLOG",
  "dataset": "DATA",
  "report": "RPRT",
  "thesis": "THES",
  "standard": "STAND",
  "review": "JOUR",
};

export function risType(item: Pick<CslItem, "type">): string {
  return TYPES[item.type];
}

export function formatRis(item: CslItem): string {
  const lines: string[] = [];
  const add = (tag: string, value: string | undefined) => {
    const v = value?.replace(/<\/?(?:i|b|sup|sub|sc|span)(?:\s[^>]*)?>/gi, "").replace(/\s+/g, " ").trim();
    if (v) lines.push(`${tag}  - ${v}`);
  };
  const type = risType(item);
  add("TY", type);
  for (const a of item.author ?? []) add("AU", name(a));
  for (const e of item.editor ?? []) add(type === "CHAP" || type === "CONF" ? "A2" : "ED", name(e));
  add("TI", item.title);
  if (type === "CONF") {
    add("C3", item["container-title"]);
    add("T2", item["event-title"]);
    add("CY", item["event-place"]);
    add("C1", item["publisher-place"]);
  } else {
    add("T2", item["container-title"]);
    if (type === "JOUR") add("JO", item["container-title-short"]);
    add("CY", item["publisher-place"]);
  }
  // DA is YYYY/MM/DD/other: a season or range goes in "other", never as an invented month.
  const [y, m, d] = item.issued?.["date-parts"]?.[0] ?? [];
  add("PY", y ? String(y) : undefined);
  const pad = (n: number | undefined) => n ? String(n).padStart(2, "0") : "";
  if (y) add("DA", `${y}/${pad(m)}/${pad(d)}/${item.issued?.season ?? ""}`);
  add("VL", item.volume);
  add("IS", item.issue);
  const [start, end] = (item.page ?? "").split(/\s*[-–]\s*/);
  add("SP", start);
  add("EP", end);
  add(type === "JOUR" ? "C7" : "M1", item.number);
  add("M3", item.genre);
  add("ET", item.edition);
  add("PB", item.publisher);
  add("SN", item.ISSN ?? item.ISBN);
  add("AB", item.abstract);
  for (const k of item.keyword?.split(", ") ?? []) add("KW", k);
  add("LA", item.language);
  add("DO", item.DOI);
  add("AN", item.PMID);
  add("C2", type === "CONF" ? undefined : item.PMCID);
  add("UR", item.URL);
  add("DB", item.source);
  lines.push("ER  - ");
  return lines.join("\n");
}

function name(n: CslName): string | undefined {
  return n.literal ?? (n.given ? `${n.family}, ${n.given}` : n.family);
}
