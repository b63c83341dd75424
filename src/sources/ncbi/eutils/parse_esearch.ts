/**
 * ESearch XML → record. Errors and warnings NCBI puts in the body are surfaced, never dropped: a fatal
 * `<ERROR>` throws, `ErrorList`/`WarningList` entries become `warnings`.
 */
import { quoteValue } from "../../../core/clip.ts";
import { ToolError } from "../../../core/errors.ts";
import { eutilsRoot } from "./root.ts";
import { asArray, parseNcbiXml, text, type XmlNode } from "./xml.ts";

export interface ESearchResult {
  count: number;
  retMax: number;
  retStart: number;
  ids: string[];
  webEnv?: string;
  queryKey?: string;
  queryTranslation?: string;
  /** e.g. `PhraseNotFound: fleegle[MeSH Terms]`, `QuotedPhraseNotFound: "x y"`, `OutputMessage: No items found.` */
  warnings: string[];
}

export function parseESearch(xml: string, url: string): ESearchResult {
  const doc = parseNcbiXml(xml, url, ["Id"]);
  const root = eutilsRoot(doc, "eSearchResult", "ESearch", url);
  const fatal = text(root.ERROR);
  if (fatal) {
    throw new ToolError(
      "INVALID_INPUT",
      `NCBI ESearch rejected the query: ${fatal}`,
      "Check the query syntax (field tags such as [MeSH Terms], quotes, boolean operators) and retry.",
    );
  }
  const warnings: string[] = [];
  for (const listName of ["ErrorList", "WarningList"]) {
    const list = root[listName] as XmlNode | undefined;
    if (!list || typeof list !== "object") continue;
    for (const [kind, value] of Object.entries(list)) {
      for (const item of asArray(value)) {
        const message = text(item);
        if (message) warnings.push(`${kind}: ${message}`);
      }
    }
  }
  const idList = root.IdList as XmlNode | undefined;
  return {
    count: countOf(root.Count, url),
    retMax: toInt(root.RetMax),
    retStart: toInt(root.RetStart),
    ids: asArray(idList && typeof idList === "object" ? idList.Id : undefined).map(text).filter(Boolean),
    webEnv: text(root.WebEnv) || undefined,
    queryKey: text(root.QueryKey) || undefined,
    queryTranslation: text(root.QueryTranslation) || undefined,
    warnings,
  };
}

/**
 * `<Count>` must be a non-negative safe integer: a count of 99999999999999999999, -5 or NaN is an upstream
 * fault to report (naming the value), never a number to chart or page by. An absent count is 0.
 */
function countOf(value: unknown, url: string): number {
  const raw = text(value).trim();
  if (raw === "") return 0;
  const n = Number(raw);
  if (/^\d+$/.test(raw) && Number.isSafeInteger(n)) return n;
  throw new ToolError(
    "UPSTREAM_ERROR",
    `NCBI ESearch answered a Count that is not a whole number of records: ${quoteValue(raw)} (${url})`,
    "Retry shortly; NCBI may be degraded.",
  );
}

function toInt(value: unknown): number {
  const n = Number.parseInt(text(value), 10);
  return Number.isFinite(n) ? n : 0;
}
