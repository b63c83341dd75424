/**
 * `deno task compile`: the standalone binary, built only from a real `denort`. deno compile needs that
 * runtime and downloads it unless DENORT_BIN names a local copy; pointed at the full `deno` binary instead,
 * it "succeeds" and writes a 200+ MB file that is plain Deno, not this server. So DENORT_BIN is checked
 * first and a wrong one refused in one line. Only the npm packages the server imports are embedded
 * (`--exclude-unused-npm` over the global cache), so test-only packages (fast-check, the SDK client) and
 * pdf.js's optional canvas builds stay out.
 */
const ROOT = new URL("../", import.meta.url);

export const COMPILE_ARGS = [
  "compile",
  "-P=cli",
  "--node-modules-dir=none",
  "--exclude-unused-npm",
  "--include",
  "src/sources/pdf/pdf_worker.ts",
  "--include",
  "src/sources/pdf/extract_child.ts",
  "--include",
  "src/sources/parse_worker.ts",
  "--include",
  "src/sources/citations/render_worker.ts",
  "--output",
  "dist/science-mcp",
  "mod.ts",
];

/** Why DENORT_BIN cannot be used, or undefined when it looks like a denort (or is unset: deno downloads one). */
export async function denortProblem(path: string | undefined): Promise<string | undefined> {
  if (path === undefined || path === "") return undefined;
  const info = await Deno.stat(path).catch(() => undefined);
  if (!info?.isFile) return `DENORT_BIN=${path} is not a file: point it at the denort binary from denort-<target>.zip.`;
  const probe = await new Deno.Command(path, {
    args: ["--version"],
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).output().catch(() => undefined);
  const said = probe ? new TextDecoder().decode(probe.stdout) : "";
  if (/^deno \d+\.\d+\.\d+/m.test(said) && /typescript/i.test(said)) {
    return `DENORT_BIN=${path} is the full deno CLI, not denort: download denort-${Deno.build.target}.zip of ` +
      `Deno ${Deno.version.deno} (https://dl.deno.land/release/v${Deno.version.deno}/denort-${Deno.build.target}.zip), ` +
      "unzip it and point DENORT_BIN at the denort file.";
  }
  return undefined;
}

if (import.meta.main) {
  const problem = await denortProblem(Deno.env.get("DENORT_BIN"));
  if (problem) {
    console.error(`error: ${problem}`);
    Deno.exit(1);
  }
  const { code } = await new Deno.Command(Deno.execPath(), { args: COMPILE_ARGS, cwd: ROOT }).spawn().status;
  Deno.exit(code);
}
