/**
 * Vets a publisher URL before anything is fetched: http(s) only, no credentials in the URL, no local
 * host names, and every address the host resolves to (A and AAAA) must be public (the address rules of
 * src/upstream/address.ts, which API redirects share). Loopback is allowed only when a caller passes
 * `allowLoopback` explicitly — the test seam for a local mock upstream; production never sets it.
 *
 * Residual risk, stated plainly: fetch resolves the name again, so a DNS answer that changes between
 * our check and the connection (rebinding) is not caught here; every redirect hop is re-vetted.
 */
import { type HostCheckOptions, hostRefusal, type ResolveDns, systemResolveDns } from "../../upstream/address.ts";

export { type ResolveDns, systemResolveDns };

export type GuardOptions = HostCheckOptions;

/** A URL we will not fetch; `message` says why in words fit for the caller. */
export class PublisherRefusal extends Error {
  override name = "PublisherRefusal";
}

/**
 * @example await vetUrl("https://peerj.com/articles/4375.pdf", { resolveDns: systemResolveDns })
 */
export async function vetUrl(raw: string, options: GuardOptions): Promise<URL> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new PublisherRefusal(`not a valid URL: ${JSON.stringify(raw.slice(0, 200))}`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new PublisherRefusal(`scheme ${url.protocol} is not allowed (http and https only)`);
  }
  if (url.username || url.password) throw new PublisherRefusal("URLs with embedded credentials are not fetched");
  if (!url.hostname) throw new PublisherRefusal("URL has no host");
  const refusal = await hostRefusal(url.hostname, options);
  if (refusal) throw new PublisherRefusal(refusal);
  return url;
}
