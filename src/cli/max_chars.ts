/** `--max-chars N` of `call`: this call's output budget instead of SCIENCE_MCP_MAX_OUTPUT_CHARS. */
import { MIN_OUTPUT_MAX_CHARS } from "../core/output_budget.ts";
import { UsageError } from "./usage_error.ts";

/**
 * Takes `--max-chars N` (or `--max-chars=N`) out of the call's flags, unless the tool has its own max_chars
 * (fetch_content's page size), which the flag then sets as before.
 */
export function takeMaxChars(argv: readonly string[], toolHasMaxChars: boolean): { maxChars?: number; rest: string[] } {
  if (toolHasMaxChars) return { rest: [...argv] };
  const rest: string[] = [];
  let maxChars: number | undefined;
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i];
    if (token !== "--max-chars" && !token.startsWith("--max-chars=")) {
      rest.push(token);
      continue;
    }
    if (maxChars !== undefined) throw new UsageError("Option --max-chars is given twice.");
    const raw = token === "--max-chars" ? argv[++i] : token.slice("--max-chars=".length);
    maxChars = Number(raw);
    if (!Number.isInteger(maxChars) || maxChars < MIN_OUTPUT_MAX_CHARS) {
      throw new UsageError(`Option --max-chars needs a whole number of at least ${MIN_OUTPUT_MAX_CHARS}, e.g. 100000.`);
    }
  }
  return { maxChars, rest };
}
