/**
 * The CLI as a subprocess (`deno run -P=cli main.ts …`): list, help, call with JSON and with flags against
 * the mock upstream, and the exit codes 0 (success), 1 (usage or configuration) and 2 (tool error).
 */
import assert from "node:assert/strict";
import { ALL_TOOLS } from "../../src/catalog.ts";
import { type MockUpstream, startMockUpstream } from "../../scripts/mock_upstream.ts";
import { flagArgv, ROOT, runDeno } from "./helpers.ts";

const cli = (args: string[], env: Record<string, string> = {}) => runDeno(["run", "-P=cli", "main.ts", ...args], env);

Deno.test("cli subprocess: list, help and usage errors", async (t) => {
  await t.step("list prints every tool and exits 0", async () => {
    const { code, stdout } = await cli(["list"]);
    assert.equal(code, 0);
    for (const def of ALL_TOOLS) assert.match(stdout, new RegExp(`^${def.name}\\s`, "m"));
  });
  if (ALL_TOOLS.length > 0) {
    await t.step("help <tool> shows its arguments and examples", async () => {
      const def = ALL_TOOLS[0];
      const { code, stdout } = await cli(["help", def.name]);
      assert.equal(code, 0);
      assert.match(stdout, new RegExp(`^${def.name}: `));
      assert.match(stdout, /Arguments:[\s\S]*Examples:\n {2}deno task cli call/);
    });
    await t.step("an invalid argument is a tool error: envelope JSON on stdout, exit 2", async () => {
      const { code, stdout } = await cli(["call", ALL_TOOLS[0].name, '{"bogus_argument":1}']);
      assert.equal(code, 2);
      assert.equal(JSON.parse(stdout).error.code, "INVALID_INPUT");
    });
  }
  await t.step("an unknown tool is a usage error: message on stderr, exit 1", async () => {
    const { code, stdout, stderr } = await cli(["call", "no_such_tool", "{}"]);
    assert.equal(code, 1);
    assert.equal(stdout, "");
    assert.match(stderr, /Unknown tool 'no_such_tool'/);
  });
  await t.step("a bad environment variable stops the CLI naming it, exit 1", async () => {
    const { code, stderr } = await cli(["list"], { MCP_HTTP_PORT: "eighty" });
    assert.equal(code, 1);
    assert.match(stderr, /Invalid environment variable MCP_HTTP_PORT="eighty"/);
  });
  await t.step("serve refuses MCP_AUTH_MODE=none on a public address before listening", async () => {
    const { code, stderr } = await cli(["serve", "--transport", "http"], {
      MCP_AUTH_MODE: "none",
      MCP_HTTP_HOST: "0.0.0.0",
    });
    assert.equal(code, 1);
    assert.match(stderr, /MCP_AUTH_MODE=none is only allowed .* loopback/);
  });
});

Deno.test({
  name: "cli subprocess: call with JSON and with flags against the mock upstream, exit 0",
  ignore: ALL_TOOLS.length === 0,
  fn: async (t) => {
    const mock: MockUpstream = await startMockUpstream();
    const def = ALL_TOOLS[0];
    const example = def.examples[0] as Record<string, unknown>;
    const env = { ...mock.env, PDF_ROOT: `${ROOT}files` };
    try {
      await t.step("JSON arguments", async () => {
        const { code, stdout, stderr } = await cli(["call", def.name, JSON.stringify(example)], env);
        assert.equal(code, 0, stderr + stdout);
        assert.equal(def.output.safeParse(JSON.parse(stdout)).success, true);
      });
      await t.step("flag arguments give the same result", async () => {
        const json = await cli(["call", def.name, JSON.stringify(example)], env);
        const flags = await cli(["call", def.name, ...flagArgv(example)], env);
        assert.equal(flags.code, 0, flags.stderr + flags.stdout);
        assert.deepEqual(JSON.parse(flags.stdout), JSON.parse(json.stdout));
      });
    } finally {
      await mock.close();
    }
  },
});
