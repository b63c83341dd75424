/**
 * The permission sets of deno.json are derived facts, checked here: every set that runs the server grants
 * exactly the variables of ENV_VARS, and the confined sets grant exactly the default upstream hosts.
 */
import assert from "node:assert/strict";
import { ENV_VARS, PROJECT_ROOT, resolveFolder, START_REFUSED_MARK } from "../../src/config.ts";
import { upstreamPolicies } from "../../src/upstreams/mod.ts";
import { testConfig } from "../helpers/runtime.ts";

interface PermissionSet {
  read?: string[] | boolean;
  write?: string[] | boolean;
  net?: string[] | boolean;
  env?: string[] | boolean;
}

const denoJson = JSON.parse(await Deno.readTextFile(new URL("../../deno.json", import.meta.url)));
const sets = denoJson.permissions as Record<string, PermissionSet>;
const config = testConfig();
const hosts = [...new Set(Object.values(upstreamPolicies(config)).flatMap((p) => p.hosts))].sort();
const envNames = ENV_VARS.map((v) => v.name).sort();
const listen = `${config.http.host}:${config.http.port}`;

Deno.test("permission sets: stdio, stdio-open, http, cli and test exist", () => {
  for (const name of ["stdio", "stdio-open", "http", "cli", "test"]) assert.ok(sets[name], name);
});

Deno.test("permission sets grant exactly the environment variables in ENV_VARS (serve.ts's sets also the start mark)", () => {
  for (const name of ["stdio", "stdio-open", "cli"]) {
    assert.deepEqual([...(sets[name].env as string[])].sort(), envNames, name);
  }
  for (const name of ["http", "deploy"]) {
    assert.deepEqual([...(sets[name].env as string[])].sort(), [...envNames, START_REFUSED_MARK].sort(), name);
  }
});

Deno.test("stdio and http grant exactly the default upstream hosts (http also its listen address)", () => {
  assert.deepEqual([...(sets.stdio.net as string[])].sort(), hosts);
  assert.deepEqual([...(sets.http.net as string[])].filter((h) => h !== listen).sort(), hosts);
  assert.ok((sets.http.net as string[]).includes(listen), `http must listen on ${listen}`);
});

Deno.test("server sets read the PDF root, cache and the server's modules; write only logs and cache", () => {
  for (const name of ["stdio", "stdio-open", "http", "cli"]) {
    const read = sets[name].read as string[];
    // Paths of a permission set are relative to deno.json, as relative folder settings are.
    const granted = read.map((path) => resolveFolder(path, PROJECT_ROOT));
    assert.ok(granted.includes(config.pdf.root), `${name} reads ${config.pdf.root}`);
    assert.ok(read.includes("./.cache"), `${name} reads the cache`);
    // Toolsets are imported from src/ on their first call (src/lazy_catalog.ts), the PDF and parse workers from src/sources.
    assert.ok(read.includes("./src"), `${name} may load the toolsets and the PDF and parse workers`);
    assert.deepEqual([...(sets[name].write as string[])].sort(), ["./.cache", "./library", "./logs"], name);
  }
});
