/**
 * The citation engine: citeproc-js with the official CSL styles and locales in ./styles/. Loaded on demand
 * (src/core/on_demand.ts) by the first export that asks for a formatted style, so a server that never
 * formats one never reads it; each style's file is imported the first time that style is asked for, and its
 * engine is kept for the next call.
 */
import type { CslItem } from "./csl.ts";
import { doiUrl } from "../doi_url.ts";

/** What a formatted style is made from: the style's module, its locale, and how its output is trimmed. */
interface StyleSpec {
  load: () => Promise<{ default: string }>;
  locale: "en-US" | "en-GB";
  /** Numeric styles number their bibliography ("1. ", "[1] "): one reference has no number. */
  numeric?: boolean;
  /**
   * Styles that print only `page` (no article-number slot): an article number takes the page's place
   * when the item has no pages, so the locator is still there.
   */
  numberAsPage?: boolean;
}

/** Formatted styles by export name. The engine names the files; format.ts names the values. */
export const STYLE_SPECS = {
  apa_string: { load: () => import("./styles/apa.ts"), locale: "en-US" },
  mla_string: { load: () => import("./styles/modern_language_association.ts"), locale: "en-US" },
  vancouver_string: { load: () => import("./styles/nlm_citation_sequence.ts"), locale: "en-US", numeric: true },
  chicago_author_date_string: { load: () => import("./styles/chicago_author_date.ts"), locale: "en-US" },
  ieee_string: { load: () => import("./styles/ieee.ts"), locale: "en-US", numeric: true },
  nature_string: { load: () => import("./styles/nature.ts"), locale: "en-GB", numeric: true, numberAsPage: true },
  harvard_string: { load: () => import("./styles/harvard_cite_them_right.ts"), locale: "en-GB", numberAsPage: true },
  ama_string: { load: () => import("./styles/american_medical_association.ts"), locale: "en-US", numeric: true },
} satisfies Record<string, StyleSpec>;

export type FormattedStyle = keyof typeof STYLE_SPECS;

interface CiteprocEngine {
  updateItems(ids: string[]): void;
  makeBibliography(): [unknown, string[]] | false;
  setOutputFormat(format: "text" | "html"): void;
}
interface Citeproc {
  Engine: new (sys: unknown, style: string, lang?: string, forceLang?: boolean) => CiteprocEngine;
}

let citeproc: Promise<Citeproc> | undefined;
const locales = new Map<string, Promise<string>>();
const engines = new Map<FormattedStyle, Promise<Engine>>();

/** One style's engine: one item at a time, handed to citeproc through `retrieveItem`. */
class Engine {
  #items = new Map<string, CslItem>();
  #engine: CiteprocEngine;
  constructor(lib: Citeproc, style: string, locale: string, localeXml: string) {
    const sys = {
      // Only the style's own locale is bundled; citeproc asks for it (and, for en-GB, en-US terms) by name.
      retrieveLocale: () => localeXml,
      retrieveItem: (id: string) => this.#items.get(id),
    };
    this.#engine = new lib.Engine(sys, style, locale, true);
    this.#engine.setOutputFormat("text");
  }
  render(item: CslItem): string {
    this.#items.clear();
    this.#items.set(item.id, item);
    this.#engine.updateItems([item.id]);
    const bib = this.#engine.makeBibliography();
    if (!bib) throw new Error("citeproc made no bibliography");
    return bib[1].join("").trim();
  }
}

function loadCiteproc(): Promise<Citeproc> {
  citeproc ??= import("npm:citeproc@2.4.63").then((m) => (m.default ?? m) as Citeproc);
  return citeproc;
}

function loadLocale(locale: "en-US" | "en-GB"): Promise<string> {
  let xml = locales.get(locale);
  if (!xml) {
    xml = (locale === "en-GB" ? import("./styles/locales_en_gb.ts") : import("./styles/locales_en_us.ts"))
      .then((m) => m.default);
    locales.set(locale, xml);
  }
  return xml;
}

function engine(style: FormattedStyle): Promise<Engine> {
  let e = engines.get(style);
  if (!e) {
    const spec: StyleSpec = STYLE_SPECS[style];
    e = Promise.all([loadCiteproc(), spec.load(), loadLocale(spec.locale)])
      .then(([lib, xml, localeXml]) => new Engine(lib, xml.default, spec.locale, localeXml));
    engines.set(style, e);
    e.catch(() => engines.delete(style));
  }
  return e;
}

/** One reference in `style`, as plain text (no HTML), without the number a numeric style would give it. */
export async function renderReference(item: CslItem, style: FormattedStyle): Promise<string> {
  const spec: StyleSpec = STYLE_SPECS[style];
  // `source` names the API the record came from; MLA would print it as a database ("Crossref,").
  const { source: _source, ...input } = spec.numberAsPage && !item.page && item.number &&
      item.type === "article-journal"
    ? { ...item, page: item.number }
    : item;
  const text = (await engine(style)).render(input);
  let out = spec.numeric ? text.replace(/^\[?1[\].]?\s+/, "") : text;
  // citeproc pastes the DOI into its link as written; `<`, `>`, `#` or spaces in a DOI would cut the link.
  if (item.DOI) out = out.split(`https://doi.org/${item.DOI}`).join(doiUrl(item.DOI));
  return out.replace(/\s+/g, " ").trim();
}
