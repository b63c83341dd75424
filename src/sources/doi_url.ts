/**
 * DOIs as links. A DOI may hold any printable character ("10.1002/(SICI)1097-0258(19980815/30)17:15/16<1661::
 * AID-SIM968>3.0.CO;2-2"); pasted raw into a URL, `<`, `>`, `#`, `?`, `%`, spaces or quotes cut or corrupt
 * the link. Everything outside RFC 3986's path characters is percent-encoded (UTF-8); `/` stays, since
 * doi.org reads the whole path as the DOI.
 */

const PATH_SAFE = /^[A-Za-z0-9\-._~!$&'()*+,;=:@/]$/;

/**
 * @example doiUrl("10.1037/amp0000904") // "https://doi.org/10.1037/amp0000904"
 * @example doiUrl("10.1002/(SICI)1097-0258(199808)17:15<1661::AID-SIM968>3.0.CO;2-2")
 *   // "https://doi.org/10.1002/(SICI)1097-0258(199808)17:15%3C1661::AID-SIM968%3E3.0.CO;2-2"
 */
export function doiUrl(doi: string): string {
  let path = "";
  for (const ch of doi.trim()) path += PATH_SAFE.test(ch) ? ch : encodeURIComponent(ch);
  return `https://doi.org/${path}`;
}

/**
 * A DOI from a `https://doi.org/…` link (OpenAlex writes DOIs that way), decoded if the link was
 * percent-encoded, so {@link doiUrl} never encodes twice.
 * @example doiFromUrl("https://doi.org/10.7717/peerj.4375") // "10.7717/peerj.4375"
 */
export function doiFromUrl(value: string): string {
  const bare = value.trim().replace(/^https?:\/\/(dx\.)?doi\.org\//i, "");
  if (!/%[0-9A-Fa-f]{2}/.test(bare)) return bare;
  try {
    return decodeURIComponent(bare);
  } catch {
    return bare;
  }
}
