/**
 * Hands the modules that src/core/on_demand.ts imports by path to whoever imports this (mod.ts): in a
 * bundle or a compiled binary they are already evaluated and there are no files to import them from.
 */
import * as taxonomy from "../sources/arxiv/taxonomy.ts";
import * as organisms from "../sources/ncbi/gene/organisms.ts";
import * as extractorProcess from "../sources/pdf/extractor_process.ts";
import * as indexAhead from "../sources/pdf/index_ahead.ts";
import * as pdfFiles from "../sources/pdf/pdf_files.ts";
import * as pubchemTypes from "../sources/pubchem/types.ts";
import * as citationThread from "../sources/citations/render_thread.ts";
import * as promptCatalog from "../prompts/catalog.ts";
import * as completions from "../prompts/completions.ts";
import * as httpServer from "../transports/http_server.ts";
import * as args from "./args.ts";
import * as help from "./help.ts";
import * as maxChars from "./max_chars.ts";
import * as outFile from "./out_file.ts";
import * as progress from "./progress.ts";
import * as invokeShared from "../invoke_shared.ts";
import * as upstreams from "../upstreams/mod.ts";
import { provideModules } from "../core/on_demand.ts";

provideModules({
  "sources/arxiv/taxonomy.ts": taxonomy,
  "sources/ncbi/gene/organisms.ts": organisms,
  "sources/pdf/extractor_process.ts": extractorProcess,
  "sources/pdf/index_ahead.ts": indexAhead,
  "sources/pdf/pdf_files.ts": pdfFiles,
  "sources/pubchem/types.ts": pubchemTypes,
  // Its worker (dist/render_worker.ts in a bundle) imports citeproc and the CSL files on its first render.
  "sources/citations/render_thread.ts": citationThread,
  "prompts/catalog.ts": promptCatalog,
  "prompts/completions.ts": completions,
  "transports/http_server.ts": httpServer,
  "cli/args.ts": args,
  "cli/help.ts": help,
  "cli/max_chars.ts": maxChars,
  "cli/out_file.ts": outFile,
  "cli/progress.ts": progress,
  "invoke_shared.ts": invokeShared,
  "upstreams/mod.ts": upstreams,
});
