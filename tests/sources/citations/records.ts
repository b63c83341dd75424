/** Test helper: the recorded Crossref works in fixtures/crossref, parsed and mapped to CSL-JSON. */
import { parseCrossrefWork } from "../../../src/sources/crossref/parse_work.ts";
import type { CrossrefWork } from "../../../src/sources/crossref/types.ts";
import type { CslItem } from "../../../src/sources/citations/csl.ts";
import { crossrefToCsl } from "../../../src/sources/citations/from/crossref.ts";
import { fixture } from "../../helpers/runtime.ts";

const DIR = new URL("../../../fixtures/crossref/", import.meta.url);

/** Every recorded Crossref work answer (real ones and the two marked BUILT). */
export function crossrefFixtures(): string[] {
  return [...Deno.readDirSync(DIR)].filter((e) => e.isFile && e.name.endsWith(".json")).map((e) => e.name).sort();
}

export function crossrefWork(name: string): CrossrefWork {
  return parseCrossrefWork(fixture(`crossref/${name}`), `fixture:${name}`);
}

/** The work in fixtures/crossref/`name` as CSL-JSON; the name may be a unique part ("srep16696"). */
export function crossrefItem(name: string): CslItem {
  const matches = crossrefFixtures().filter((f) => f.includes(name));
  if (matches.length !== 1) throw new Error(`'${name}' names ${matches.length} Crossref fixtures`);
  return crossrefToCsl(crossrefWork(matches[0]));
}

/** The hand-checked CSL-JSON for fixture `name`. */
export function goldenCsl(name: string): CslItem {
  return JSON.parse(fixture(`crossref/csl/${name}`));
}
