/**
 * Can this machine reach an upstream at all? One HEAD request with a short timeout: any HTTP answer
 * (even 403 or 404) means the host is there; a DNS, connection or TLS failure or the timeout means not.
 * The live smoke suite asks this first, so an offline machine skips with a reason instead of failing.
 */

const PROBE_TIMEOUT_MS = 8_000;

export interface Reach {
  host: string;
  reachable: boolean;
  /** Why not, when unreachable ("fetch failed", "timed out after 8 s"). */
  reason?: string;
}

export async function reach(baseUrl: string): Promise<Reach> {
  const url = new URL(baseUrl);
  try {
    const response = await fetch(url.origin + "/", { method: "HEAD", signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
    await response.body?.cancel();
    return { host: url.host, reachable: true };
  } catch (error) {
    const reason = error instanceof DOMException && error.name === "TimeoutError"
      ? `timed out after ${PROBE_TIMEOUT_MS / 1000} s`
      : error instanceof Error
      ? error.message
      : String(error);
    return { host: url.host, reachable: false, reason };
  }
}
