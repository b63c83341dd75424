const T: [string, number][] = [];
let t = performance.now();
const step = async (name: string, ...mods: string[]) => {
  for (const m of mods) await import(m);
  const n = performance.now();
  T.push([name, n - t]);
  t = n;
};
await step("sdk", "npm:@modelcontextprotocol/server@2.4.0", "npm:@modelcontextprotocol/server@2.4.0/stdio");
await step("core-idx", "npm:@modelcontextprotocol/core@2.4.0");
await step("zod", "./src/core/zod.ts");
await step("node:path/url/os", "node:path", "node:url");
await step(
  "core",
  "./src/core/errors.ts",
  "./src/core/log.ts",
  "./src/core/clip.ts",
  "./src/core/output_budget.ts",
  "./src/core/version.ts",
  "./src/core/clock.ts",
);
await step("upstream", "./src/upstreams/mod.ts");
await step("config", "./src/config.ts");
await step("preflight", "./src/preflight.ts");
await step("manifest", "./src/lazy_catalog.ts");
await step("invoke+json_schema", "./src/core/invoke.ts", "./src/core/json_schema.ts", "./src/core/result_memo.ts");
await step("runtime", "./src/runtime.ts");
await step("server", "./src/server.ts");
await step("stdio", "./src/transports/stdio.ts");
await step("cli/serve", "./src/cli/serve.ts");
await step("cli/main", "./src/cli/main.ts");
console.log(T.map(([n, v]) => `${n} ${v.toFixed(1)}`).join(" | "));
