/** Messages between the server's thread and the citation thread (render_thread.ts ↔ render_worker.ts). */
import type { CslItem } from "./csl.ts";
import type { FormattedStyle } from "./engine.ts";

export interface RenderRequest {
  id: number;
  item: CslItem;
  style: FormattedStyle;
}

export type RenderReply =
  | { ready: true }
  | { id: number; ok: true; text: string }
  | { id: number; ok: false; message: string };
