/**
 * Routes of the mock upstream (scripts/mock_upstream.ts). The mock serves every upstream on one port
 * under a prefix: /ncbi → NCBI E-utilities, /pubchem → PubChem REST, /arxiv-api, /arxiv-web, /ar5iv,
 * /openalex, /publisher, /europepmc. So `NCBI_EUTILS_BASE_URL=http://127.0.0.1:PORT/ncbi` points the server at it.
 */
export type MockPrefix =
  | "ncbi"
  | "idconv"
  | "pubchem"
  | "arxiv-api"
  | "arxiv-web"
  | "ar5iv"
  | "openalex"
  | "publisher"
  | "europepmc"
  | "crossref";

export interface MockRequest {
  method: string;
  /** Path below the prefix, e.g. `/esearch.fcgi` for `/ncbi/esearch.fcgi`. */
  path: string;
  /** Query parameters merged with form-body parameters (E-utilities accept either). */
  params: URLSearchParams;
  url: URL;
  body: string;
}

export interface MockRoute {
  prefix: MockPrefix;
  /** Human-readable, for the request log and docs. */
  name: string;
  /** Return a Response to answer, or undefined to let the next route try. */
  handle(request: MockRequest): Response | undefined | Promise<Response | undefined>;
}

/** Reads a fixture (path relative to fixtures/) for a route. */
export function fixtureText(path: string): string {
  return Deno.readTextFileSync(new URL(`../../fixtures/${path}`, import.meta.url));
}

export function fixtureResponse(path: string, contentType: string, status = 200): Response {
  return new Response(Deno.readFileSync(new URL(`../../fixtures/${path}`, import.meta.url)), {
    status,
    headers: { "content-type": contentType },
  });
}

/**
 * A recorded Atom feed sliced as arXiv pages it: the entries from `start`, at most `max`, with startIndex set;
 * undefined past its last entry.
 */
export function slicedAtomFeed(feed: string, start: number, max: number): string | undefined {
  const first = feed.indexOf("  <entry>");
  const entries = feed.slice(first, feed.lastIndexOf("</feed>")).split(/(?= {2}<entry>)/);
  if (start >= entries.length) return undefined;
  const head = feed.slice(0, first).replace(/<opensearch:startIndex>\d+/, `<opensearch:startIndex>${start}`);
  return `${head}${entries.slice(start, start + max).join("")}</feed>\n`;
}
