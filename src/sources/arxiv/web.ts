/**
 * Requests for arXiv's web pages on the `arxiv-web` upstream (1 request/s, one connection): the
 * LaTeXML full text (`/html/<id>`), ar5iv's older LaTeXML renderings (absolute URL on AR5IV_BASE_URL,
 * unversioned ids), the PDF and the abstract page.
 */
import type { Config } from "../../config.ts";
import type { ServiceRequest } from "../../upstreams/mod.ts";
import { stripVersion } from "./ids.ts";

const HTML = "text/html,application/xhtml+xml";

export function arxivHtmlRequest(id: string): ServiceRequest {
  return { upstream: "arxiv-web", path: `/html/${id}`, accept: HTML };
}

/** ar5iv serves the latest version it converted, under the unversioned id. */
export function ar5ivRequest(config: Config, id: string): ServiceRequest {
  return { upstream: "arxiv-web", url: `${config.baseUrls.ar5iv}/html/${stripVersion(id)}`, accept: HTML };
}

export function arxivPdfRequest(id: string, maxBytes: number): ServiceRequest {
  return { upstream: "arxiv-web", path: `/pdf/${id}`, accept: "application/pdf", maxBytes };
}

export function absPageRequest(id: string): ServiceRequest {
  return { upstream: "arxiv-web", path: `/abs/${id}`, accept: HTML };
}
