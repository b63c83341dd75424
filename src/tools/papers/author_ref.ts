/** An author as search_papers and fetch_top_cited take it: an OpenAlex A id or an ORCID, as an OpenAlex filter. */
import { invalidInput } from "../../core/errors.ts";
import { bareOrcid, normalizeAuthorId } from "../../sources/openalex/parse_author.ts";

/**
 * The OpenAlex works filter for an author.
 * @example authorFilter("https://openalex.org/a5043579160") // "authorships.author.id:A5043579160"
 * @example authorFilter("0000-0001-5473-2109") // "authorships.author.orcid:https://orcid.org/0000-0001-5473-2109"
 */
export function authorFilter(raw: string): string {
  const id = normalizeAuthorId(raw);
  if (id) return `authorships.author.id:${id}`;
  const orcid = bareOrcid(raw);
  if (orcid) return `authorships.author.orcid:https://orcid.org/${orcid}`;
  throw invalidInput(
    "author",
    "is neither an OpenAlex author id (A5043579160) nor an ORCID (0000-0001-5473-2109)",
    raw,
    "Find the author's id with find_author (by name), then pass it here.",
  );
}
