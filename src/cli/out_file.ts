/**
 * `call <tool> … --out FILE`: an image a tool attaches (an MCP image block) is written to FILE instead of being
 * lost, and stdout keeps the structuredContent JSON. Base64 never goes to the terminal.
 */
import type { ToolResult } from "../core/invoke.ts";
import type { ImageBlock } from "../core/tool_def.ts";
import { UsageError } from "./usage_error.ts";

/** Removes `--out FILE` / `--out=FILE` from a call's arguments (unless the tool itself has an `out` field). */
export function takeOutOption(argv: readonly string[], toolHasOut: boolean): { out?: string; rest: string[] } {
  if (toolHasOut) return { rest: [...argv] };
  const rest: string[] = [];
  let out: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i];
    if (token !== "--out" && !token.startsWith("--out=")) {
      rest.push(token);
      continue;
    }
    if (out !== undefined) throw new UsageError("Option --out is given twice.");
    out = token === "--out" ? argv[++i] : token.slice("--out=".length);
    if (!out) throw new UsageError("Option --out needs a file name, e.g. --out aspirin.png.");
  }
  return { out, rest };
}

/**
 * Writes the result's image to `out`, or says on stderr that one is attached; returns an error message when the
 * file cannot be written or `--out` was given for a result without an image.
 */
export async function saveImage(
  result: ToolResult,
  out: string | undefined,
  stderr: (text: string) => void,
): Promise<string | undefined> {
  const image = result.content.find((c): c is ImageBlock => c.type === "image");
  if (!image) {
    if (out && !result.isError) return `--out ${out}: the result carries no image, so nothing was written.`;
    return undefined;
  }
  const bytes = Uint8Array.from(atob(image.data), (c) => c.charCodeAt(0));
  if (!out) {
    stderr(`${image.mimeType} image attached (${bytes.length} bytes); pass --out FILE to save it.\n`);
    return undefined;
  }
  try {
    await Deno.writeFile(out, bytes);
  } catch (error) {
    if (error instanceof Deno.errors.NotCapable || error instanceof Deno.errors.PermissionDenied) {
      return `cannot write ${out}: no write permission; grant it with ` +
        `deno run -P=cli --allow-write=${out} mod.ts call …`;
    }
    return `cannot write ${out}: ${(error as Error).message}`;
  }
  stderr(`saved ${image.mimeType} (${bytes.length} bytes) to ${out}\n`);
  return undefined;
}
