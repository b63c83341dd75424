/**
 * The command line and the server's entry point: `deno run -P=stdio main.ts serve --transport stdio`
 * (`deno task start`), `deno run -P=cli main.ts call <tool> …`. It imports the CLI alone, not the public
 * API of mod.ts, so `serve` answers tools/list from the generated manifest and imports a toolset on its
 * first call (src/lazy_catalog.ts): a cold start does not evaluate 34 tools' modules.
 * @module
 */
import { main } from "./src/cli/main.ts";

if (import.meta.main) Deno.exit(await main());
