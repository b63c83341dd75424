/**
 * What the server loads: the npm packages in mod.ts's static import graph. Test-only packages (the SDK
 * client, fast-check, ajv) and pdf.js's native canvas builds must stay out, or every start, bundle and
 * compiled binary pays for them.
 */
import assert from "node:assert/strict";

const ROOT = new URL("../../", import.meta.url);

Deno.test("the server's import graph holds no test-only or native package", async () => {
  const info = await moduleGraph("mod.ts");
  const packages = new Set(
    info.modules.filter((m) => m.kind === "npm").map((m) => m.npmPackage!.replace(/@[^@]+$/, "")),
  );
  assert.ok(packages.has("@modelcontextprotocol/server"), `the graph was read: ${[...packages]}`);
  for (const banned of ["@modelcontextprotocol/client", "fast-check", "ajv", "@napi-rs/canvas"]) {
    assert.ok(!packages.has(banned), `${banned} is in mod.ts's import graph`);
  }
});

interface GraphModule {
  specifier: string;
  kind: string;
  npmPackage?: string;
  dependencies?: { code?: { specifier: string }; isDynamic?: boolean }[];
}

/** `deno info --json entry`: the module graph Deno reads for `entry`. */
async function moduleGraph(entry: string): Promise<{ roots: string[]; modules: GraphModule[] }> {
  const { stdout, success } = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", entry],
    cwd: ROOT,
    stdout: "piped",
    stderr: "null",
  }).output();
  assert.ok(success, `deno info ${entry} failed`);
  return JSON.parse(new TextDecoder().decode(stdout));
}

/** The specifiers reachable from `entry`, through dynamic imports too or not. */
async function reachable(entry: string, dynamic: boolean): Promise<Set<string>> {
  const info = await moduleGraph(entry);
  const bySpecifier = new Map(info.modules.map((m) => [m.specifier, m]));
  const seen = new Set<string>();
  const visit = (specifier: string) => {
    if (seen.has(specifier)) return;
    seen.add(specifier);
    for (const dep of bySpecifier.get(specifier)?.dependencies ?? []) {
      if (dep.code && (dynamic || !dep.isDynamic)) visit(dep.code.specifier);
    }
  };
  visit(info.roots[0]);
  return seen;
}

/** The modules Deno evaluates when `entry` starts: its static graph, dynamic imports left out. */
async function evaluatedAtStart(entry: string): Promise<string[]> {
  const seen = await reachable(entry, false);
  return [...seen].filter((s) => s.startsWith(ROOT.href)).map((s) => s.slice(ROOT.href.length));
}

Deno.test("starting the server (main.ts, serve.ts) evaluates no tool module: toolsets load on first call", async () => {
  for (const entry of ["main.ts", "serve.ts"]) {
    const modules = await evaluatedAtStart(entry);
    assert.ok(modules.includes("src/server.ts") && modules.includes("src/lazy_catalog.ts"), `${entry}: ${modules}`);
    const eager = modules.filter((m) => m.startsWith("src/tools/") || m === "src/catalog.ts" || m === "mod.ts");
    assert.deepEqual(eager, [], `${entry} imports these statically; import them from src/lazy_catalog.ts's loaders`);
  }
});

Deno.test("the stdio entry (main.ts) evaluates neither the upstream pipeline nor the call path before tools/list", async () => {
  const modules = await evaluatedAtStart("main.ts");
  assert.ok(modules.includes("src/upstreams/table.ts") && modules.includes("src/upstreams/lazy.ts"), `${modules}`);
  const onFirstCall = modules.filter((m) =>
    m.startsWith("src/upstream/") && !["src/upstream/def.ts", "src/upstream/policies.ts"].includes(m) ||
    ["src/upstreams/mod.ts", "src/invoke_shared.ts", "src/core/invoke.ts", "src/core/output_budget.ts"].includes(m)
  );
  assert.deepEqual(onFirstCall, [], "import these by onDemand (src/upstreams/lazy.ts, src/runtime.ts's invokeShared)");
});

Deno.test("the stdio entry loads no Node.js module and nothing a listing does not use before tools/list", async () => {
  // Each costs a cold start CPU beyond the floor's (#36): node:path and node:url load Deno's Node.js path
  // and URL modules (src/core/paths.ts has what the start needs); the fence and markdown helpers, the JSON
  // Schema converter (extension tools only) and the extractor's process code are for calls.
  const seen = await reachable("main.ts", false);
  const builtins = [...seen].filter((s) => s.startsWith("node:"));
  assert.deepEqual(builtins, [], "import these where they are used after start (onDemand), or use src/core/paths.ts");
  const local = [...seen].filter((s) => s.startsWith(ROOT.href)).map((s) => s.slice(ROOT.href.length));
  const forCalls = ["src/render/untrusted.ts", "src/render/markdown.ts", "src/core/json_schema.ts"]
    .concat("src/sources/pdf/extractor_process.ts").filter((m) => local.includes(m));
  assert.deepEqual(forCalls, []);
});

Deno.test("the server's files name npm packages by full npm: specifiers, so importers need no import map", async () => {
  const names = Object.keys(JSON.parse(await Deno.readTextFile(new URL("deno.json", ROOT))).imports);
  const bare = new RegExp(`(?:from|import)\\s*\\(?\\s*["'](${names.map((n) => n.replace(/[/-]/g, "\\$&")).join("|")})`);
  const offenders: string[] = [];
  const walk = async (dir: URL) => {
    for await (const entry of Deno.readDir(dir)) {
      const url = new URL(entry.name + (entry.isDirectory ? "/" : ""), dir);
      if (entry.isDirectory) await walk(url);
      else if (entry.name.endsWith(".ts") && bare.test(await Deno.readTextFile(url))) offenders.push(url.pathname);
    }
  };
  await walk(new URL("src/", ROOT));
  for (const file of ["mod.ts", "serve.ts"]) {
    if (bare.test(await Deno.readTextFile(new URL(file, ROOT)))) offenders.push(file);
  }
  assert.deepEqual(offenders, [], "import npm packages as npm:<package>@<version>, as deno.json pins them");
});

Deno.test("what an extractor process reads at start: its own modules, no npm package, not PDFium's embedded copy", async () => {
  // Deno reads every module a process's code names literally, dynamic imports included, before the first line
  // runs: an npm package there (pdf.js, PDFium's emscripten glue) or the 2.85 MB embedded wasm cost each extractor
  // 4–45 ms of CPU at start (#36). Type-only imports are not read.
  const read = await reachable("src/sources/pdf/extract_child.ts", true);
  const local = [...read].map((s) => s.replace(ROOT.href, ""));
  assert.ok(local.includes("src/sources/pdf/pdfium_host.ts"), `the graph was read: ${local}`);
  const unwanted = local.filter((s) =>
    s.startsWith("npm:") || s.includes("/assets/") ||
    // The extractor may read its own folder and the PNG container only (extractor_process.ts).
    !s.startsWith("node:") && !s.startsWith("src/sources/pdf/") && s !== "src/render/png_file.ts"
  );
  assert.deepEqual(unwanted, []);
});
