/** Test wiring: a config from a plain env record, a scripted fetch, and an SDK client over memory. */
import { type Config, type Env, loadConfig } from "../../src/config.ts";
import { ManualClock } from "../../src/core/clock.ts";
import { memoryLogger } from "../../src/core/log.ts";
import { createRuntime, type Deps, type Runtime } from "../../src/runtime.ts";
import { createMcpServer, type ServerOptions } from "../../src/server.ts";
import { Client, InMemoryTransport } from "../../src/sdk_client.ts";
import type { Fetch } from "../../src/upstream/types.ts";

/**
 * A config for tests: upstream delays and the tool-call deadline off (tests drive a manual clock far
 * faster than real work such as PDF extraction runs), unless a test turns them on.
 */
export function testConfig(env: Env = {}): Config {
  return loadConfig({
    NCBI_REQUEST_DELAY_MS: "0",
    TOOL_CALL_TIMEOUT_MS: "0",
    LOGS_DIR: "off",
    LIBRARY_DIR: testLibraryDir(),
    ...env,
  });
}

let sharedLibrary: string | undefined;

/**
 * The paper library of tests that name none: one empty folder per test process under the system's temp
 * folder, never the clone's ./library (which a user's saved papers may fill).
 */
export function testLibraryDir(): string {
  return sharedLibrary ??= Deno.makeTempDirSync({ prefix: "science-mcp-test-library-" });
}

export interface RecordedRequest {
  method: string;
  url: URL;
  body: string;
  headers: Headers;
  /** The request's abort signal (a route that holds a request ends when it aborts). */
  signal: AbortSignal;
}

export type Route = (request: RecordedRequest) => Response | undefined | Promise<Response | undefined>;

/**
 * A scripted fetch: each request is recorded, then offered to the routes in order; the first that
 * returns a Response answers. Unrouted requests get a 599 so a test can never reach the network.
 */
export function scriptedFetch(...routes: Route[]): Fetch & { requests: RecordedRequest[] } {
  const requests: RecordedRequest[] = [];
  const fn = async (request: Request) => {
    const recorded = {
      method: request.method,
      url: new URL(request.url),
      body: request.body ? await request.text() : "",
      headers: request.headers,
      signal: request.signal,
    };
    requests.push(recorded);
    for (const route of routes) {
      const response = await route(recorded);
      if (response) return response;
    }
    return new Response(`no route for ${request.method} ${request.url}`, { status: 599 });
  };
  return Object.assign(fn, { requests });
}

/** Reads a fixture file (path relative to fixtures/). */
export function fixture(path: string): string {
  return Deno.readTextFileSync(new URL(`../../fixtures/${path}`, import.meta.url));
}

export function fixtureBytes(path: string): Uint8Array {
  return Deno.readFileSync(new URL(`../../fixtures/${path}`, import.meta.url));
}

export function testRuntime(deps: Partial<Deps> & { env?: Env } = {}): Runtime {
  return createRuntime({
    config: deps.config ?? testConfig(deps.env),
    fetch: deps.fetch ?? scriptedFetch(),
    clock: deps.clock ?? new ManualClock(1_700_000_000_000),
    log: deps.log ?? memoryLogger(),
  });
}

/** Connects a real SDK Client to a server over an in-memory transport pair. */
export async function connectClient(
  runtime: Runtime,
  options: ServerOptions = {},
): Promise<{ client: Client; close: () => Promise<void> }> {
  const server = createMcpServer(runtime, options);
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: "test-client", version: "1.0.0" });
  await server.connect(serverTransport);
  await client.connect(clientTransport);
  return {
    client,
    close: async () => {
      await client.close();
      await server.close();
      await runtime.close();
    },
  };
}
