/**
 * Run under a permission set (`deno run -P=<set> tests/e2e/render_worker_probe.ts [worker]`): renders one
 * reference in APA through the real citation host and prints `{"inline":…,"text":…,"warnings":[…]}`; `worker`
 * is a worker module path relative to the project root (the bundle's dist/render_worker.ts), else the host's own.
 */
import { memoryLogger } from "../../src/core/log.ts";
import { RenderHost } from "../../src/sources/citations/render_thread.ts";

const [workerPath] = Deno.args;
const log = memoryLogger();
const host = new RenderHost({
  log,
  ...(workerPath
    ? { spawn: () => new Worker(new URL(`../../${workerPath}`, import.meta.url), { type: "module" }) }
    : {}),
});
const text = await host.render(
  { id: "Suh2012_1", type: "article-journal", title: "Probe", author: [{ family: "Suh", given: "Jun-Gyo" }] },
  "apa_string",
);
host.close();
console.log(JSON.stringify({ inline: host.inlineOnly, text, warnings: log.records.map((r) => r.reason) }));
