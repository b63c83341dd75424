/**
 * Run under a permission set (`deno run -P=<set> tests/e2e/parse_worker_probe.ts [worker]`): parses a small
 * page on the parse worker through the real host and prints `{"inline":…,"text":…}` as JSON; `worker` is
 * a worker module path relative to the project root (the bundle's dist/parse_worker.ts), else the host's own.
 */
import { memoryLogger } from "../../src/core/log.ts";
import { htmlTextJob } from "../../src/sources/html/html_to_text.ts";
import { ParseHost } from "../../src/sources/parse_off_thread.ts";

const [workerPath] = Deno.args;
const log = memoryLogger();
const host = new ParseHost({
  minBytes: 0,
  log,
  ...(workerPath
    ? { spawn: () => new Worker(new URL(`../../${workerPath}`, import.meta.url), { type: "module" }) }
    : {}),
});
const page = "<html><body><p>parsed off the main thread</p></body></html>";
const parsed = await host.parse(
  htmlTextJob,
  { body: new TextEncoder().encode(page), url: "probe", text: () => page },
  [],
);
host.close();
console.log(JSON.stringify({ inline: host.inlineOnly, text: parsed.text, warnings: log.records.map((r) => r.reason) }));
