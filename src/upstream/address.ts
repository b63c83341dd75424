/**
 * Which hosts and IP addresses a server-side fetch must never reach (SSRF): private, loopback, link-local,
 * unique-local, multicast, unspecified, shared (CGNAT), documentation/benchmark and other special-purpose
 * ranges (IANA IPv4/IPv6 Special-Purpose Address Registries), including IPv4 addresses embedded in IPv6
 * (mapped `::ffff:a.b.c.d`, compatible `::a.b.c.d`, NAT64 `64:ff9b::/96`, 6to4 `2002::/16`).
 * Hosts arrive already normalised by the WHATWG URL parser, which turns `2130706433`, `0177.0.0.1` and
 * `0x7f.1` into `127.0.0.1`; {@link parseIpv4} accepts only that canonical dotted form.
 * Publisher links (src/sources/publisher/guard.ts) and redirects of API requests (redirects.ts) share it.
 */

export type AddressVerdict = { allowed: true } | { allowed: false; reason: string; loopback: boolean };

/** [first address as number, prefix length, reason] */
const V4_BLOCKS: readonly [string, number, string][] = [
  ["0.0.0.0", 8, "unspecified / this-network"],
  ["10.0.0.0", 8, "private"],
  ["100.64.0.0", 10, "shared address space (CGNAT)"],
  ["127.0.0.0", 8, "loopback"],
  ["169.254.0.0", 16, "link-local"],
  ["172.16.0.0", 12, "private"],
  ["192.0.0.0", 24, "IETF protocol assignments"],
  ["192.0.2.0", 24, "documentation"],
  ["192.88.99.0", 24, "6to4 relay anycast"],
  ["192.168.0.0", 16, "private"],
  ["198.18.0.0", 15, "benchmarking"],
  ["198.51.100.0", 24, "documentation"],
  ["203.0.113.0", 24, "documentation"],
  ["224.0.0.0", 4, "multicast"],
  ["240.0.0.0", 4, "reserved / broadcast"],
];

/** `a.b.c.d` (canonical decimal) → 32-bit number, else undefined. */
export function parseIpv4(host: string): number | undefined {
  const parts = host.split(".");
  if (parts.length !== 4 || !parts.every((p) => /^(0|[1-9]\d{0,2})$/.test(p) && Number(p) <= 255)) return undefined;
  return parts.reduce((n, p) => n * 256 + Number(p), 0);
}

/** IPv6 text (brackets allowed, `::` and a trailing dotted IPv4 accepted) → eight 16-bit words. */
export function parseIpv6(host: string): number[] | undefined {
  let h = host.replace(/^\[|\]$/g, "").toLowerCase();
  if (!h.includes(":") || h.includes("%")) return undefined;
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(h);
  if (v4) {
    const n = parseIpv4(v4[1]);
    if (n === undefined) return undefined;
    h = h.slice(0, -v4[1].length) + `${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const halves = h.split("::");
  if (halves.length > 2) return undefined;
  const groups = (s: string) => (s === "" ? [] : s.split(":"));
  const head = groups(halves[0]);
  const tail = halves.length === 2 ? groups(halves[1]) : [];
  const fill = halves.length === 2 ? 8 - head.length - tail.length : 0;
  if (fill < 0 || (halves.length === 1 && head.length !== 8)) return undefined;
  const all = [...head, ...Array(fill).fill("0"), ...tail];
  if (all.length !== 8 || !all.every((g) => /^[0-9a-f]{1,4}$/.test(g))) return undefined;
  return all.map((g) => parseInt(g, 16));
}

export function isIpLiteral(host: string): boolean {
  return parseIpv4(host) !== undefined || parseIpv6(host) !== undefined;
}

/**
 * @example checkAddress("10.1.2.3") // { allowed: false, reason: "private", loopback: false }
 * @example checkAddress("[::ffff:7f00:1]") // { allowed: false, reason: "loopback (IPv4-mapped)", ... }
 */
export function checkAddress(address: string): AddressVerdict {
  const v4 = parseIpv4(address);
  if (v4 !== undefined) return checkV4(v4, "");
  const w = parseIpv6(address);
  if (!w) return { allowed: false, reason: "not an IP address", loopback: false };
  const embedded = (hi: number, lo: number) => hi * 65536 + lo;
  const zeros = (n: number) => w.slice(0, n).every((x) => x === 0);
  if (zeros(8)) return refuse("unspecified");
  if (zeros(7) && w[7] === 1) return { allowed: false, reason: "loopback", loopback: true };
  if (zeros(5) && w[5] === 0xffff) return checkV4(embedded(w[6], w[7]), " (IPv4-mapped)");
  if (zeros(6)) return checkV4(embedded(w[6], w[7]), " (IPv4-compatible)");
  if (w[0] === 0x64 && w[1] === 0xff9b && w.slice(2, 6).every((x) => x === 0)) {
    return checkV4(embedded(w[6], w[7]), " (NAT64)");
  }
  if (w[0] === 0x2002) return checkV4(embedded(w[1], w[2]), " (6to4)");
  if (w[0] === 0x64 && w[1] === 0xff9b && w[2] === 1) return refuse("local-use NAT64");
  if (w[0] === 0x100 && w.slice(1, 4).every((x) => x === 0)) return refuse("discard-only");
  if (w[0] === 0x2001 && w[1] === 0) return refuse("Teredo");
  if (w[0] === 0x2001 && w[1] === 0xdb8) return refuse("documentation");
  if ((w[0] & 0xfe00) === 0xfc00) return refuse("unique-local");
  if ((w[0] & 0xffc0) === 0xfe80) return refuse("link-local");
  if ((w[0] & 0xffc0) === 0xfec0) return refuse("site-local");
  if ((w[0] & 0xff00) === 0xff00) return refuse("multicast");
  return { allowed: true };
}

function checkV4(n: number, suffix: string): AddressVerdict {
  for (const [start, bits, reason] of V4_BLOCKS) {
    const base = parseIpv4(start)!;
    const size = 2 ** (32 - bits);
    if (n >= base && n < base + size) {
      return { allowed: false, reason: reason + suffix, loopback: reason === "loopback" };
    }
  }
  return { allowed: true };
}

function refuse(reason: string): AddressVerdict {
  return { allowed: false, reason, loopback: false };
}

/** A DNS lookup of one record type; a name without such records yields []. */
export type ResolveDns = (host: string, type: "A" | "AAAA") => Promise<string[]>;

/** The system resolver; a name that does not exist for one record type yields no addresses. */
export const systemResolveDns: ResolveDns = async (host, type) => {
  try {
    return await Deno.resolveDns(host, type);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return [];
    throw error;
  }
};

const LOCAL_NAMES = /(^|\.)(localhost|local|internal|localdomain|home\.arpa)\.?$/i;

export interface HostCheckOptions {
  resolveDns: ResolveDns;
  /** Test seam: let a local mock server (127.0.0.1 / ::1 / localhost) through. Never set in production. */
  allowLoopback?: boolean;
}

/**
 * Why a host must not be fetched (a local name, or any of its A/AAAA addresses is not public), or
 * undefined when it may be. Resolver failures (no permission, no DNS) are thrown to the caller.
 *
 * @example await hostRefusal("internal.example.org", { resolveDns }) // "internal.example.org (10.1.2.3) is a private address"
 */
export async function hostRefusal(host: string, options: HostCheckOptions): Promise<string | undefined> {
  if (LOCAL_NAMES.test(host) && !(options.allowLoopback && /^localhost\.?$/i.test(host))) {
    return `host ${host} is a local name`;
  }
  const addresses = isIpLiteral(host) ? [host] : await resolveAll(host, options.resolveDns);
  if (addresses.length === 0) return `host ${host} does not resolve`;
  for (const address of addresses) {
    const verdict = checkAddress(address);
    if (verdict.allowed || (verdict.loopback && options.allowLoopback)) continue;
    const shown = address === host ? host : `${host} (${address})`;
    return `${shown} is a ${verdict.reason} address`;
  }
  return undefined;
}

async function resolveAll(host: string, resolve: ResolveDns): Promise<string[]> {
  const [a, aaaa] = await Promise.all([resolve(host, "A"), resolve(host, "AAAA")]);
  return [...a, ...aaaa];
}
