/**
 * The two protocol eras this server speaks, and what differs between them at the server object:
 * 2025-11-25 (and older 2025-era revisions) through `initialize` with per-connection state, and
 * 2026-07-28 statelessly, every request carrying its own `_meta` envelope. Transports pick the era of a
 * connection or request; createMcpServer asks this module what to advertise and cache.
 */
import { type DiscoverResult, LEGACY_PROTOCOL_VERSION, MODERN_PROTOCOL_VERSION, type Server } from "../sdk.ts";

/** Which protocol era a server object serves: 2025 sessions (`legacy`) or stateless 2026-07-28 (`modern`). */
export type Era = "legacy" | "modern";

/** What `server/discover` lists: the modern revision and the 2025 one a legacy client reaches with `initialize`. */
export const ADVERTISED_VERSIONS: readonly string[] = [MODERN_PROTOCOL_VERSION, LEGACY_PROTOCOL_VERSION];

const HOUR_MS = 3_600_000;

/**
 * `ttlMs`/`cacheScope` of the cacheable 2026-07-28 results (2025 results never carry them). The tool
 * catalogue, templates and discovery depend only on the deployment's configuration, so any cache may
 * keep them for an hour; resource lists (the PDF folder) and reads change, so they stay private and short.
 */
export const CACHE_HINTS = {
  "server/discover": { ttlMs: HOUR_MS, cacheScope: "public" },
  "tools/list": { ttlMs: HOUR_MS, cacheScope: "public" },
  "prompts/list": { ttlMs: HOUR_MS, cacheScope: "public" },
  "resources/templates/list": { ttlMs: HOUR_MS, cacheScope: "public" },
  "resources/list": { ttlMs: 60_000, cacheScope: "private" },
  "resources/read": { ttlMs: 60_000, cacheScope: "private" },
} as const;

/**
 * Makes `server/discover` list the 2025 revision beside the modern one, so a client that cannot speak
 * 2026-07-28 learns it may fall back to `initialize`. SDK 2.4 builds the answer in a private method
 * (listing modern revisions only) and installs its handler when a request is served, so the answer
 * is adjusted where it is built (tests/protocol/modern_http_test.ts and tests/e2e/eras_test.ts check it).
 */
export function advertiseBothEras(server: Server): void {
  const internal = server as unknown as { _ondiscover?: () => DiscoverResult };
  const build = internal._ondiscover?.bind(server);
  if (!build) throw new Error("MCP SDK changed: Server._ondiscover is gone; update src/protocol/eras.ts.");
  internal._ondiscover = () => ({ ...build(), supportedVersions: [...ADVERTISED_VERSIONS] });
}
