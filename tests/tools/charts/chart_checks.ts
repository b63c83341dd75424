/** Checks shared by the chart tool tests: the image block is a whole 600×400 PNG, and the SVG resource serves it. */
import assert from "node:assert/strict";
import { pngInfo } from "../../../src/sources/pubchem/depiction.ts";
import type { CallResult } from "../../helpers/tool_harness.ts";

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

export interface ChartImage {
  mimeType: string;
  width: number;
  height: number;
  bytes: number;
  svgUri: string;
}

/** Decodes the one image block: PNG signature, IHDR size and every chunk's CRC; it matches `image`. */
export async function assertChartPng(result: CallResult): Promise<Uint8Array> {
  assert.equal(result.isError, undefined, JSON.stringify(result.structuredContent));
  const images = (result.content as unknown as { type: string; data: string; mimeType: string }[])
    .filter((c) => c.type === "image");
  assert.equal(images.length, 1, "one image block");
  assert.equal(images[0].mimeType, "image/png");
  const bytes = Uint8Array.from(atob(images[0].data), (c) => c.charCodeAt(0));
  assert.deepEqual([...bytes.subarray(0, 8)], PNG_SIGNATURE);
  assert.equal(String.fromCharCode(...bytes.subarray(12, 16)), "IHDR");
  const view = new DataView(bytes.buffer);
  assert.deepEqual([view.getUint32(16), view.getUint32(20)], [600, 400], "IHDR width × height");
  assert.deepEqual(await pngInfo(bytes), { width: 600, height: 400 }, "a whole PNG: every chunk's CRC, IEND last");
  const image = result.structuredContent.image as ChartImage;
  assert.deepEqual(image, { ...image, mimeType: "image/png", width: 600, height: 400, bytes: bytes.length });
  return bytes;
}

/** The Markdown table rows of a text block (header and separator excluded), split into trimmed cells. */
export function tableRows(text: string): string[][] {
  const lines = text.split("\n").filter((line) => line.startsWith("| "));
  return lines.slice(1).map((line) => line.slice(2, -2).split(" | ").map((cell) => cell.trim()));
}
