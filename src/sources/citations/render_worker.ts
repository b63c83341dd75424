/**
 * The citation thread (see render_thread.ts): builds each CSL style's citeproc engine the first time it is
 * asked for (seconds and ~100 MiB for APA or Chicago) and renders references, so the server's thread never
 * waits on it. One request at a time per style; engines stay until the host ends the thread.
 */
import { renderReference } from "./engine.ts";
import type { RenderReply, RenderRequest } from "./render_protocol.ts";

// stdout carries the MCP protocol in stdio mode: nothing in this thread may write to it.
console.log = console.info = console.debug = (...args: unknown[]) => console.error(...args);

interface WorkerScope {
  onmessage: ((event: MessageEvent<RenderRequest>) => void) | null;
  postMessage(message: RenderReply): void;
}
const scope = globalThis as unknown as WorkerScope;

scope.onmessage = async ({ data: request }) => {
  let reply: RenderReply;
  try {
    reply = { id: request.id, ok: true, text: await renderReference(request.item, request.style) };
  } catch (error) {
    reply = { id: request.id, ok: false, message: error instanceof Error ? error.message : String(error) };
  }
  scope.postMessage(reply);
};
scope.postMessage({ ready: true });
