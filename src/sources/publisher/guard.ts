/**
 * Vets a publisher URL before anything is fetched: http(s) only, no credentials in the URL, no local
 * host names, and every address the host resolves to (A and AAAA) must be public (see address.ts).
 * Loopback is allowed only when a caller passes `allowLoopback` explicitly — the test seam for a local
 * mock upstream; production never sets it.
 *
 * Residual risk, stated plainly: fetch resolves the name again, so a DNS answer that changes between
 * our check and the connection (rebinding) is not caught here; every redirect hop is re-vetted.
 */
import { checkAddress, isIpLiteral } from "./address.ts";

export type ResolveDns = (host: string, type: "A" | "AAAA") => Promise<string[]>;

export interface GuardOptions {
  resolveDns: ResolveDns;
  /** Test seam: let a local mock server (127.0.0.1 / ::1) through. Never set in production. */
  allowLoopback?: boolean;
}

/** A URL we will not fetch; `message` says why in words fit for the caller. */
export class PublisherRefusal extends Error {
  override name = "PublisherRefusal";
}

const LOCAL_NAMES = /(^|\.)(localhost|local|internal|localdomain|home\.arpa)\.?$/i;

/** The system resolver; a name that does not exist for one record type yields no addresses. */
export const systemResolveDns: ResolveDns = async (host, type) => {
  try {
    return await Deno.resolveDns(host, type);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return [];
    throw error;
  }
};

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
  const host = url.hostname;
  if (!host) throw new PublisherRefusal("URL has no host");
  if (LOCAL_NAMES.test(host) && !(options.allowLoopback && /^localhost\.?$/i.test(host))) {
    throw new PublisherRefusal(`host ${host} is a local name`);
  }
  const addresses = isIpLiteral(host) ? [host] : await resolveAll(host, options.resolveDns);
  if (addresses.length === 0) throw new PublisherRefusal(`host ${host} does not resolve`);
  for (const address of addresses) {
    const verdict = checkAddress(address);
    if (verdict.allowed || (verdict.loopback && options.allowLoopback)) continue;
    const shown = address === host ? host : `${host} (${address})`;
    throw new PublisherRefusal(`${shown} is a ${verdict.reason} address`);
  }
  return url;
}

async function resolveAll(host: string, resolve: ResolveDns): Promise<string[]> {
  const [a, aaaa] = await Promise.all([resolve(host, "A"), resolve(host, "AAAA")]);
  return [...a, ...aaaa];
}
