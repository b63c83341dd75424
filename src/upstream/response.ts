/** The response object adapters receive, built from a fresh or a cached answer. */
import { cleanRetrievedText } from "../core/control_chars.ts";
import type { UpstreamResponse } from "./types.ts";

/**
 * Wraps a body in an {@link UpstreamResponse}. Text is decoded once, on first use, without control and
 * direction characters (src/core/control_chars.ts). Each caller gets its
 * own Headers; the body bytes are shared with the cache and with coalesced callers, so treat them as
 * read-only.
 */
export function makeResponse(
  status: number,
  headers: Headers | [string, string][],
  body: Uint8Array,
  url: string,
  fromCache: boolean,
  method: "GET" | "POST" = "GET",
): UpstreamResponse {
  let text: string | undefined;
  // Control and direction characters leave here, before any parser, cache or offset sees the text.
  const decode = () => (text ??= cleanRetrievedText(new TextDecoder().decode(body)));
  return {
    status,
    headers: new Headers(headers),
    body,
    url,
    fromCache,
    method,
    text: decode,
    json<T>() {
      return JSON.parse(decode()) as T;
    },
  };
}
