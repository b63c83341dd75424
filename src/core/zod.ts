/**
 * zod, re-exported: every module of src/ imports it from here. Deno resolves each `npm:` specifier of a
 * module loaded after start (a toolset, on its first call: src/lazy_catalog.ts) on its own, under the
 * node_modules lock at ~2–3 ms of wall time each; 59 `npm:zod` imports made a first call ~150 ms slower
 * than one specifier here does.
 */
export { z } from "npm:zod@4.6.7";
