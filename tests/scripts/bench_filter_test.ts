/** `deno task bench <filter>`: a whole module name takes that module alone, any other filter a part of names. */
import assert from "node:assert/strict";
import { selectModules } from "../../bench/main.ts";

const modules = ["hostile_pdf_bench.ts", "pdf_bench.ts", "pdf_idle_bench.ts", "pacing_bench.ts"];

Deno.test("a module's whole name takes that module alone, not the others that contain it", () => {
  assert.deepEqual(selectModules(modules, ["pdf_bench"]), ["pdf_bench.ts"]);
  assert.deepEqual(selectModules(modules, ["pdf_bench.ts"]), ["pdf_bench.ts"]);
  assert.deepEqual(selectModules(modules, ["pdf_idle"]), ["pdf_idle_bench.ts"]);
});

Deno.test("a part of a name takes every module that contains it", () => {
  assert.deepEqual(selectModules(modules, ["pdf"]), ["hostile_pdf_bench.ts", "pdf_bench.ts", "pdf_idle_bench.ts"]);
  assert.deepEqual(selectModules(modules, ["pac", "idle"]), ["pacing_bench.ts", "pdf_idle_bench.ts"]);
});

Deno.test("no filter takes every module; a filter nothing contains takes none", () => {
  assert.deepEqual(selectModules(modules, []), [...modules].sort());
  assert.deepEqual(selectModules(modules, ["nothing"]), []);
});
