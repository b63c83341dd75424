/**
 * The layers of src/, checked on every file's imports (type-only imports included): no import circles,
 * no arrow up the layers, toolsets never import each other, and the pipeline and core name no upstream.
 * The layer order is documented in docs/architecture.md; change both together.
 */
import assert from "node:assert/strict";

const ROOT = new URL("../../", import.meta.url);

/** Lowest first. A file may import from its own layer or any layer below it, never above. */
const LAYERS: readonly [name: string, matches: (path: string) => boolean][] = [
  [
    "core",
    (p) =>
      p.startsWith("src/core/") || p.startsWith("src/render/") || p.startsWith("src/generated/") ||
      p === "src/sdk.ts" || p === "src/sdk_client.ts",
  ],
  ["upstream", (p) => p.startsWith("src/upstream/")],
  ["upstreams", (p) => p.startsWith("src/upstreams/")],
  ["config", (p) => p === "src/config.ts"],
  ["preflight", (p) => p === "src/preflight.ts"],
  ["context", (p) => p === "src/context.ts"],
  ["sources", (p) => p.startsWith("src/sources/")],
  ["tools", (p) => p.startsWith("src/tools/")],
  ["catalog", (p) => p === "src/catalog.ts" || p === "src/manifest.ts" || p === "src/lazy_catalog.ts"],
  ["runtime", (p) => p === "src/runtime.ts" || p === "src/invoke_shared.ts"],
  ["prompts", (p) => p.startsWith("src/prompts/")],
  ["protocol", (p) => p.startsWith("src/protocol/")],
  ["server", (p) => p === "src/server.ts"],
  ["transports", (p) => p.startsWith("src/transports/")],
  ["cli", (p) => p.startsWith("src/cli/")],
  ["entry", (p) => p === "mod.ts" || p === "main.ts" || p === "serve.ts"],
];

function layerOf(path: string): number {
  const index = LAYERS.findIndex(([, matches]) => matches(path));
  if (index < 0) throw new Error(`${path} belongs to no layer: add it to LAYERS and docs/architecture.md`);
  return index;
}

async function sourceFiles(): Promise<string[]> {
  const out = ["mod.ts", "main.ts", "serve.ts"];
  async function walk(dir: string): Promise<void> {
    for await (const entry of Deno.readDir(new URL(dir, ROOT))) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory) await walk(path);
      else if (entry.name.endsWith(".ts")) out.push(path);
    }
  }
  await walk("src");
  return out.sort();
}

const IMPORT =
  /(?:^|[\s;])(?:import|export)\s+(?:type\s+)?(?:[\w*{}\s,$]+?\s+from\s+)?["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;

/** Relative import specifiers of one file, resolved to repository paths. */
export function relativeImports(path: string, text: string): string[] {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
  const out: string[] = [];
  for (const match of code.matchAll(IMPORT)) {
    const specifier = match[1] ?? match[2];
    if (!specifier.startsWith(".")) continue;
    out.push(new URL(specifier, new URL(path, "file:///")).pathname.slice(1));
  }
  return out;
}

const files = await sourceFiles();
const graph = new Map<string, string[]>();
for (const path of files) graph.set(path, relativeImports(path, await Deno.readTextFile(new URL(path, ROOT))));

Deno.test("the import parser sees value, type, re-export and dynamic imports", () => {
  const text = 'import { a } from "./a.ts";\nimport type { B } from "../b.ts";\nexport * from "./c.ts";\n' +
    'export { d } from "./d.ts";\nconst e = await import("./e.ts");\nimport "./f.ts";\n// import "./commented.ts";\n';
  assert.deepEqual(relativeImports("src/x/y.ts", text), [
    "src/x/a.ts",
    "src/b.ts",
    "src/x/c.ts",
    "src/x/d.ts",
    "src/x/e.ts",
    "src/x/f.ts",
  ]);
});

/** Generated data modules (`deno task docs`), imported as JSON. */
const isGeneratedJson = (path: string) => path.startsWith("src/generated/") && path.endsWith(".json");

Deno.test("every import points at a file that exists", async () => {
  for (const [from, targets] of graph) {
    for (const to of targets) {
      if (isGeneratedJson(to)) await Deno.stat(new URL(to, ROOT));
      else assert.ok(graph.has(to), `${from} imports ${to}, which is not a source file`);
    }
  }
});

Deno.test("no import goes up the layers", () => {
  const upward: string[] = [];
  for (const [from, targets] of graph) {
    for (const to of targets) {
      if (layerOf(to) > layerOf(from)) {
        upward.push(`${from} (${LAYERS[layerOf(from)][0]}) → ${to} (${LAYERS[layerOf(to)][0]})`);
      }
    }
  }
  assert.deepEqual(upward, []);
});

Deno.test("there is no import circle", () => {
  const state = new Map<string, "visiting" | "done">();
  const cycles: string[] = [];
  const stack: string[] = [];
  function visit(node: string): void {
    state.set(node, "visiting");
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === "visiting") cycles.push([...stack.slice(stack.indexOf(next)), next].join(" → "));
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(node, "done");
  }
  for (const node of graph.keys()) if (!state.has(node)) visit(node);
  assert.deepEqual(cycles, []);
});

Deno.test("toolsets never import each other (only the shared tool contract in src/tools/)", () => {
  const toolset = (path: string) => /^src\/tools\/([^/]+)\//.exec(path)?.[1];
  const crossings: string[] = [];
  for (const [from, targets] of graph) {
    const own = toolset(from);
    if (!own) continue;
    for (const to of targets) {
      const other = toolset(to);
      if (other && other !== own) crossings.push(`${from} → ${to}`);
    }
  }
  assert.deepEqual(crossings, []);
});

Deno.test("outside the upstream table, src/upstream and src/core name no upstream", async () => {
  const named: string[] = [];
  for (const path of files.filter((p) => p.startsWith("src/upstream/") || p.startsWith("src/core/"))) {
    const text = await Deno.readTextFile(new URL(path, ROOT));
    text.split("\n").forEach((line, i) => {
      if (/ncbi|pubchem|arxiv|openalex/i.test(line)) named.push(`${path}:${i + 1}: ${line.trim()}`);
    });
  }
  assert.deepEqual(named, []);
});

Deno.test("sources receive a SourceContext, never the whole ToolContext (pdf and pubchem excepted for now)", async () => {
  const offenders: string[] = [];
  for (const path of files.filter((p) => p.startsWith("src/sources/"))) {
    if (/^src\/sources\/(pdf|pubchem)\//.test(path)) continue;
    if (/\bToolContext\b/.test(await Deno.readTextFile(new URL(path, ROOT)))) offenders.push(path);
  }
  assert.deepEqual(offenders, []);
});

Deno.test("every source file opens with a purpose comment", async () => {
  const silent: string[] = [];
  for (const path of files) {
    const first = (await Deno.readTextFile(new URL(path, ROOT))).trimStart();
    if (!first.startsWith("/**") && !first.startsWith("//")) silent.push(path);
  }
  assert.deepEqual(silent, []);
});
