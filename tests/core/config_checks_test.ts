/**
 * A start takes each setting at its default without building its zod schema (src/config.ts, #36): these
 * tests hold that shortcut to what the schemas say. Every default must parse, through its own schema, to
 * exactly the value the shortcut takes; and whole environments, good and bad, must give the same Config or
 * the same error as one zod object of every schema did before.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import {
  BASE_URL_CHECK,
  checkSetting,
  ENV_VARS,
  loadConfig,
  PROJECT_ROOT,
  SETTING_CHECKS,
  type SettingCheck,
  settingValue,
} from "../../src/config.ts";
import { z } from "../../src/core/zod.ts";

const CHECKS = Object.entries(SETTING_CHECKS) as [string, SettingCheck][];
const BASE_URL_NAMES = ENV_VARS.filter((v) => !(v.name in SETTING_CHECKS)).map((v) => v.name);

Deno.test("every default parses, through its own schema, to the value a start takes for it", () => {
  for (const root of [PROJECT_ROOT, "/srv/science-mcp"]) {
    for (const v of ENV_VARS) {
      const check = (SETTING_CHECKS as Record<string, SettingCheck>)[v.name] ?? BASE_URL_CHECK;
      const value = settingValue(v, {}, root);
      if (value === undefined) continue;
      const parsed = check.schema().safeParse(value);
      assert.ok(parsed.success, `${v.name}'s default ${JSON.stringify(value)} fails its own schema`);
      assert.deepEqual(checkSetting(v.name, check, { [v.name]: value }, root), parsed.data, v.name);
    }
  }
});

Deno.test("a setting marked optional parses unset to undefined; one marked number parses to numbers", () => {
  const defaults = new Map(ENV_VARS.map((v) => [v.name, v.default]));
  for (const [name, check] of CHECKS) {
    const unset = check.schema().safeParse(undefined);
    assert.equal(unset.success && unset.data === undefined, check.optional === true, name);
    const sample = check.schema().safeParse(defaults.get(name) ?? "0");
    if (sample.success) assert.equal(typeof sample.data === "number", check.number === true, name);
  }
});

/** The reference: one zod object of every schema, and a record of the base-URL schema, as config.ts was. */
function reference(env: Record<string, string>) {
  const raw: Record<string, string | undefined> = {};
  for (const v of ENV_VARS) raw[v.name] = settingValue(v, env, PROJECT_ROOT);
  const settings = z.object(Object.fromEntries(CHECKS.map(([name, check]) => [name, check.schema()]))).safeParse(raw);
  const urls = z.record(z.string(), BASE_URL_CHECK.schema()).safeParse(
    Object.fromEntries(BASE_URL_NAMES.map((name) => [name, raw[name]])),
  );
  if (settings.success && urls.success) return { raw, data: { ...settings.data, ...urls.data } };
  const issue = (settings.error ?? urls.error)!.issues[0];
  const name = String(issue.path[0]);
  return { raw, error: `Invalid environment variable ${name}=${JSON.stringify(raw[name])}: ${issue.message}` };
}

Deno.test("whole environments give the error one zod object of every schema gave, or none", () => {
  const values = fc.constantFrom(
    "",
    " ",
    "0",
    "1",
    "999",
    "1000",
    "70000",
    "-5",
    "1.5",
    "abc",
    "http",
    "stdio",
    "none",
    "debug",
    "stateless",
    "https://example.org/",
    "ftp://x",
    "a@b.org",
    "not-an-email",
    "https://a.org,https://b.org",
    "pubmed,gene",
    "/tmp/x",
    "https://kv.example/db",
    "x".repeat(70),
  );
  const names = ENV_VARS.filter((v) => v.name !== "MCP_MAX_SESSIONS_PER_SUBJECT").map((v) => v.name);
  const env = fc.dictionary(fc.constantFrom(...names), values, { maxKeys: 4 });
  fc.assert(
    fc.property(env, (e) => {
      const expected = reference(e);
      let error: string | undefined;
      try {
        loadConfig(e);
      } catch (caught) {
        error = (caught as Error).message;
      }
      if (expected.error) return assert.equal(error, expected.error);
      // The settings pass: any error is a later rule's (an unknown toolset), never a setting's check.
      if (error) assert.doesNotMatch(error, /^Invalid environment variable \w+=/);
      for (const [name, check] of [...CHECKS, ...BASE_URL_NAMES.map((n) => [n, BASE_URL_CHECK] as const)]) {
        assert.deepEqual(checkSetting(name, check, expected.raw, PROJECT_ROOT), expected.data![name], name);
      }
    }),
    { numRuns: 1500 },
  );
});
