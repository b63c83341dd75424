/**
 * Fetches a publisher link (from an OpenAlex location) safely: each hop is vetted by {@link vetUrl}
 * before it is requested, redirects are followed by hand (`redirect: "manual"`) so a public URL cannot
 * bounce us to an internal one, the number of hops, the body size and the total time are capped.
 */
import type { SourceContext } from "../../context.ts";
import type { UpstreamResponse } from "../../upstream/types.ts";
import { type GuardOptions, PublisherRefusal, vetUrl } from "./guard.ts";

export interface PublisherFetchOptions extends GuardOptions {
  maxBytes: number;
  /** Budget for the whole chain of hops. */
  timeoutMs: number;
  maxHops?: number;
  accept?: string;
}

export interface PublisherResponse {
  response: UpstreamResponse;
  /** Every URL requested, first to last (redacted as the pipeline shows them). */
  hops: string[];
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
export const DEFAULT_MAX_HOPS = 5;

/**
 * @throws PublisherRefusal when a hop is refused, redirects loop or exceed the cap.
 * @example await fetchPublisher(ctx, "https://peerj.com/articles/4375.pdf", { resolveDns, maxBytes, timeoutMs })
 */
export async function fetchPublisher(
  ctx: Pick<SourceContext, "upstream" | "signal">,
  start: string,
  options: PublisherFetchOptions,
): Promise<PublisherResponse> {
  const maxHops = options.maxHops ?? DEFAULT_MAX_HOPS;
  const signal = AbortSignal.any([ctx.signal, AbortSignal.timeout(options.timeoutMs)]);
  const hops: string[] = [];
  let current = start;
  for (let hop = 0; hop <= maxHops; hop++) {
    const url = await vet(current, options);
    const response = await ctx.upstream.request({
      upstream: "publisher",
      url: url.href,
      redirect: "manual",
      maxBytes: options.maxBytes,
      accept: options.accept,
      signal,
    });
    hops.push(response.url);
    if (!REDIRECTS.has(response.status)) return { response, hops };
    const location = response.headers.get("location");
    if (!location) throw new PublisherRefusal(`HTTP ${response.status} redirect without a Location from ${url.host}`);
    current = new URL(location, url).href;
  }
  throw new PublisherRefusal(`more than ${maxHops} redirects starting at ${start}`);
}

async function vet(url: string, options: GuardOptions): Promise<URL> {
  try {
    return await vetUrl(url, options);
  } catch (error) {
    if (error instanceof PublisherRefusal) throw error;
    if (error instanceof Error && /NotCapable|PermissionDenied/.test(error.name)) {
      throw new PublisherRefusal(
        `no network permission for ${safeHost(url)}: publisher links need --allow-net for any host ` +
          "(the default permission set grants only the API hosts)",
      );
    }
    throw new PublisherRefusal(`DNS lookup failed for ${safeHost(url)}: ${(error as Error).message}`);
  }
}

function safeHost(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return "an invalid URL";
  }
}
