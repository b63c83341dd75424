/**
 * `{"IdentifierList":{"CID":[…]}}` (or AID/SID) → ids, and `{"Waiting":{"ListKey":…}}` → the key to poll.
 * PubChem answers a structure it can parse but does not hold with CID 0; that is "no match", not an id.
 */
import { z } from "../../core/zod.ts";
import { intList, isObject, malformed, parsePugJson } from "./pug_json.ts";
import type { IdentifierAnswer } from "./types.ts";

export type IdentifierKind = "CID" | "AID" | "SID";

export function parseIdentifierAnswer(text: string, url: string, kind: IdentifierKind): IdentifierAnswer {
  const doc = parsePugJson(text, url);
  if (isObject(doc.Waiting)) {
    const listKey = String(doc.Waiting.ListKey ?? "");
    // The key goes back into a URL path: accept only what PubChem issues (digits, letters, - and _).
    if (/^[A-Za-z0-9_-]+$/.test(listKey)) return { kind: "waiting", listKey };
    throw malformed(url, "a Waiting answer without a usable ListKey");
  }
  if (!isObject(doc.IdentifierList)) throw malformed(url, "neither an IdentifierList nor a Waiting ListKey");
  const list = ID_LIST.safeParse(doc.IdentifierList[kind] ?? []);
  if (!list.success) throw malformed(url, `an IdentifierList whose ${kind} is not a list of ids`);
  const ids = intList(list.data).filter((id) => id > 0);
  return { kind: "ids", ids: [...new Set(ids)] };
}

/** Ids as PubChem sends them: integers, occasionally as digit strings. Anything else is a malformed answer. */
const ID_LIST = z.array(z.union([z.number().int(), z.string().regex(/^\d+$/)]));
