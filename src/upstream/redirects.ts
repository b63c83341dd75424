/**
 * Redirects of API requests, followed by hand so each hop can be vetted: a hop may stay on the host the
 * request was sent to (its configured base URL, a mock on loopback included), or go to a host its
 * definition allows (`redirectHosts`) when every address of that host is public. Anything else is refused
 * without reading the refused answer, so an API host that bounces us to an internal page never gets that
 * page in front of a caller.
 */
import { hostRefusal, type ResolveDns } from "./address.ts";

/** Statuses that carry a Location to follow. */
export const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);
/** Hops followed at most for one request. */
export const MAX_REDIRECTS = 5;

/** The request of the next hop. */
export interface Hop {
  url: string;
  method: "GET" | "POST";
  body?: string;
}

/** A redirect the pipeline will not follow; the message says where it pointed and why, never what it said. */
export class RedirectRefusal extends Error {
  override name = "RedirectRefusal";
}

export interface RedirectRules {
  /** Host names besides the request's own that a hop may lead to. */
  redirectHosts: readonly string[];
  resolveDns: ResolveDns;
}

/**
 * The next hop after `status` with `location` from `from` (the URL just requested), checked against the
 * request's original URL `origin`.
 *
 * @throws RedirectRefusal when the target is another host that is not allowed, not http(s), carries
 *   credentials, or resolves to a non-public address.
 * @example await nextHop(302, "/esearch.fcgi?x", current, origin, rules) // { url: "https://…/esearch.fcgi?x", method: "GET" }
 */
export async function nextHop(
  status: number,
  location: string | null,
  from: Hop,
  origin: URL,
  rules: RedirectRules,
): Promise<Hop> {
  if (!location) throw new RedirectRefusal(`${origin.host} answered HTTP ${status} without a Location`);
  let target: URL;
  try {
    target = new URL(location, from.url);
  } catch {
    throw new RedirectRefusal(`${origin.host} redirected to an invalid URL`);
  }
  if (target.protocol !== "http:" && target.protocol !== "https:") {
    throw new RedirectRefusal(`${origin.host} redirected to a ${target.protocol} URL, which is not followed`);
  }
  if (target.username || target.password) {
    throw new RedirectRefusal(`${origin.host} redirected to a URL with embedded credentials, which is not followed`);
  }
  if (!sameHost(origin, target)) {
    if (!rules.redirectHosts.includes(target.hostname)) {
      throw new RedirectRefusal(
        `${origin.host} redirected to ${target.host}, another host, which API requests do not follow`,
      );
    }
    const refusal = await vetHost(target.hostname, rules.resolveDns);
    if (refusal) {
      throw new RedirectRefusal(`${origin.host} redirected to ${target.host}, which is not followed: ${refusal}`);
    }
  }
  // 303 always, and 301/302 after a POST, continue as GET without a body (as browsers and fetch do).
  const asGet = status === 303 || ((status === 301 || status === 302) && from.method === "POST");
  return asGet ? { url: target.href, method: "GET" } : { url: target.href, method: from.method, body: from.body };
}

/** Same host name and port, or the upgrade of the same name from http:80 to https:443. */
function sameHost(origin: URL, target: URL): boolean {
  if (origin.hostname !== target.hostname) return false;
  if (effectivePort(origin) === effectivePort(target)) return true;
  return origin.protocol === "http:" && effectivePort(origin) === "80" && target.protocol === "https:" &&
    effectivePort(target) === "443";
}

function effectivePort(url: URL): string {
  return url.port || (url.protocol === "https:" ? "443" : "80");
}

async function vetHost(host: string, resolveDns: ResolveDns): Promise<string | undefined> {
  try {
    return await hostRefusal(host, { resolveDns });
  } catch {
    return `its address could not be checked`;
  }
}
