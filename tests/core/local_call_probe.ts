/**
 * Run by local_call_test.ts in a process of its own (no module of the upstream pipeline evaluated before): calls the
 * local tool `list_pdfs` over PDF_ROOT=Deno.args[0], then a network tool whose upstream refuses it, and prints
 * after each whether the runtime's upstream pipeline had been built.
 */
import { loadConfig } from "../../src/config.ts";
import { callTool, createRuntime, type Runtime } from "../../src/runtime.ts";

function built(runtime: Runtime): boolean {
  try {
    runtime.upstream.status();
    return true;
  } catch {
    return false;
  }
}

const runtime = createRuntime({
  config: loadConfig({ PDF_ROOT: Deno.args[0], NCBI_EUTILS_BASE_URL: "http://127.0.0.1:9" }),
  // Any network call is answered at once with a refusal (no retries): only whether the pipeline was built matters.
  fetch: () => Promise.resolve(new Response("not here", { status: 400 })),
});
try {
  const local = await callTool(runtime, "list_pdfs", {});
  const afterLocal = built(runtime);
  await callTool(runtime, "search_genes", { query: "BRCA1", organism: "human" });
  console.log(JSON.stringify({ localError: local.isError ?? false, afterLocal, afterNetwork: built(runtime) }));
} finally {
  await runtime.close();
}
