/**
 * What every chart tool does with its SVG: rasterise it to a PNG image block, keep both in the runtime's
 * chart store under a content hash (the same chart is drawn once; its SVG stays readable as a resource),
 * and describe the image in structuredContent. The data behind a chart is cached by the upstream pipeline
 * per CID or query and options; the store caches the drawing.
 */
import { z } from "../core/zod.ts";
import { BoundedLru } from "../core/lru.ts";
import { sharedKey } from "../core/shared_key.ts";
import { svgToPng } from "../render/chart/rasterize.ts";
import { HEIGHT, WIDTH } from "../render/chart/svg.ts";
import type { ImageBlock, ToolContext } from "./tool_def.ts";

export interface StoredChart {
  svg: string;
  png: Uint8Array;
}

/** Charts kept per runtime: a few MB, enough for a conversation's charts to stay readable as resources. */
export const CHART_STORE = sharedKey<BoundedLru<StoredChart>>("charts:store");
const STORE_BYTES = 8 * 1024 * 1024;
const STORE_ENTRIES = 64;

export function chartStore(ctx: Pick<ToolContext, "shared">): BoundedLru<StoredChart> {
  return ctx.shared(CHART_STORE, () => new BoundedLru({ maxSize: STORE_BYTES, maxEntries: STORE_ENTRIES }));
}

export const chartImageSchema = z.object({
  mimeType: z.literal("image/png"),
  width: z.number().int(),
  height: z.number().int(),
  bytes: z.number().int().describe("Size of the attached PNG."),
  svgUri: z.string().describe("The same chart as SVG, a resource for clients that show one."),
}).describe("The chart attached as an image block.");

export type ChartImage = z.infer<typeof chartImageSchema>;

/** The PNG block and its description for `svg`, drawn once per distinct chart per runtime. */
export async function drawChart(
  ctx: Pick<ToolContext, "shared">,
  scheme: string,
  svg: string,
): Promise<{ image: ChartImage; block: ImageBlock }> {
  const id = await chartId(svg);
  const store = chartStore(ctx);
  let chart = store.get(id);
  if (!chart) {
    chart = { svg, png: await svgToPng(svg) };
    store.set(id, chart, { size: chart.png.length + svg.length });
  }
  const image: ChartImage = {
    mimeType: "image/png",
    width: WIDTH,
    height: HEIGHT,
    bytes: chart.png.length,
    svgUri: `${scheme}://chart/${id}`,
  };
  return { image, block: { type: "image", data: chart.png.toBase64(), mimeType: "image/png" } };
}

/** The line of a text block that says what is attached. */
export function imageLine(image: ChartImage): string {
  return `chart: attached below (${image.mimeType}, ${image.width}×${image.height} px, ${image.bytes} bytes); ` +
    `SVG: ${image.svgUri}`;
}

/** First 16 hex digits of the SHA-256 of the SVG: equal charts share an id. */
async function chartId(svg: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(svg)));
  return [...digest.subarray(0, 8)].map((b) => b.toString(16).padStart(2, "0")).join("");
}
