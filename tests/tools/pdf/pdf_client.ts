/** An SDK client connected to a test server whose PDF_ROOT is `root`, with typed search_pdf calls. */
import type { Env } from "../../../src/config.ts";
import { systemClock } from "../../../src/core/clock.ts";
import type { Client } from "../../../src/sdk_client.ts";
import { STARTED_NOTE } from "../../../src/tools/pdf/extractor_note.ts";
import { connectClient, testRuntime } from "../../helpers/runtime.ts";

export const FIXTURES_PDF = decodeURIComponent(new URL("../../../fixtures/pdf", import.meta.url).pathname);
export const FILES_DIR = decodeURIComponent(new URL("../../../files", import.meta.url).pathname);

export interface SearchResult {
  pdf_name?: string;
  file_exists: boolean;
  query_exists: boolean;
  matches: string[];
  error?: string;
  warnings?: string[];
  total_matches: number;
  page_count: number;
  match_details: { page: number; offset: number; offsets: number[] }[];
  mode?: "phrase" | "words";
  words?: string[];
  total_passages?: number;
  truncated?: boolean;
  next_cursor?: string;
  next?: { tool: string; arguments: Record<string, unknown> };
  hint?: string;
}

export interface ErrorResult {
  error: { code: string; message: string; recovery_hint: string; invalid_input?: { field: string } };
}

export interface PdfClient {
  client: Client;
  /**
   * Calls search_pdf and returns its structuredContent (a SearchResult, or an ErrorResult when isError),
   * without the note a call that waited for an extractor to start may carry (it depends on the machine's load).
   */
  search(args: Record<string, unknown>): Promise<SearchResult & Partial<ErrorResult> & { isError?: boolean }>;
  close(): Promise<void>;
}

export async function pdfClient(root: string, env: Env = {}): Promise<PdfClient> {
  const runtime = testRuntime({ clock: systemClock, env: { PDF_ROOT: root, ...env } });
  const { client, close } = await connectClient(runtime);
  return {
    client,
    async search(args) {
      const result = await client.callTool({ name: "search_pdf", arguments: args }, { timeout: 300_000 });
      const found = result.structuredContent as SearchResult & Partial<ErrorResult>;
      const warnings = found.warnings?.filter((w) => w !== STARTED_NOTE);
      if (found.warnings) {
        if (warnings?.length) found.warnings = warnings;
        else delete found.warnings;
      }
      return { ...found, isError: result.isError as boolean };
    },
    close,
  };
}
