/**
 * A compound's PNG depiction, fetched through the PubChem upstream (paced, cached, coalesced) and checked:
 * a body is accepted only if it is a PNG within the byte cap, so an HTML error page or a runaway answer
 * never reaches a client as an "image".
 */
import { ToolError, UpstreamError } from "../../core/errors.ts";
import { type PubChemContext, TTL } from "./client.ts";
import { mapPubChemError } from "./faults.ts";

export type DepictionSize = "small" | "large";

/** Depictions are a few KB (300×300 ≈ 5–15 KB); anything near this cap is not a structure drawing. */
export const MAX_DEPICTION_BYTES = 512 * 1024;

/**
 * Largest width or height passed on: PubChem draws at most 300×300, and a header claiming 20000×20000 would
 * ask the client to allocate gigabytes to show it.
 */
export const MAX_DEPICTION_PX = 2048;

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

export interface Depiction {
  bytes: Uint8Array;
  width: number;
  height: number;
  /** Credential-free URL of the request. */
  url: string;
  fromCache: boolean;
}

export function depictionRequest(cid: number, size: DepictionSize) {
  return { path: `/pug/compound/cid/${cid}/PNG`, query: { image_size: size } };
}

/** Fetches the PNG of a compound; ENTITY_NOT_FOUND when PubChem has no depiction for the CID. */
export async function fetchDepiction(ctx: PubChemContext, cid: number, size: DepictionSize): Promise<Depiction> {
  let response;
  try {
    response = await ctx.upstream.request({
      upstream: "pubchem",
      accept: "image/png",
      signal: ctx.signal,
      ttlMs: TTL.record,
      maxBytes: MAX_DEPICTION_BYTES,
      ...depictionRequest(cid, size),
    });
  } catch (error) {
    if (error instanceof UpstreamError && error.kind === "too_large") {
      throw new ToolError(
        "PAYLOAD_TOO_LARGE",
        `PubChem's depiction of CID ${cid} is over the ${MAX_DEPICTION_BYTES / 1024} KB image cap.`,
        "Ask for size 'small', or pass inline false and open imageUrl instead.",
        { cause: error },
      );
    }
    throw mapPubChemError(error, {
      notFound: `PubChem has no structure depiction for CID ${cid}`,
      notFoundHint: "Check the CID with search_compound_by_identifier or fetch_compound_properties; " +
        "records without a structure (mixtures, some biologics) have no depiction.",
      field: "cid",
      value: cid,
    });
  }
  const info = await pngInfo(response.body);
  if (!info) {
    throw new ToolError(
      "UPSTREAM_ERROR",
      `PubChem answered with something that is not a PNG for CID ${cid} (${response.url}).`,
      "Retry shortly; if it persists, pass inline false and open imageUrl instead.",
    );
  }
  const { width, height } = info;
  if (width < 1 || height < 1 || width > MAX_DEPICTION_PX || height > MAX_DEPICTION_PX) {
    throw new ToolError(
      "UPSTREAM_ERROR",
      `PubChem's PNG for CID ${cid} claims ${width}×${height} pixels; a depiction is at most ${MAX_DEPICTION_PX} px ` +
        `a side, so it is not passed on (${response.url}).`,
      "Pass inline false and open imageUrl instead.",
    );
  }
  return { bytes: response.body, ...info, url: response.url, fromCache: response.fromCache };
}

/**
 * Width and height of a whole PNG, or undefined when the bytes are not one: the signature, IHDR first, every
 * chunk's CRC and a final IEND are checked, so a truncated or corrupted answer is never passed on as an image.
 * `node:zlib` (for its crc32) is imported here, on the first depiction, not when the server starts (#24.8).
 */
export async function pngInfo(bytes: Uint8Array): Promise<{ width: number; height: number } | undefined> {
  if (bytes.length < 8 || PNG_SIGNATURE.some((b, i) => bytes[i] !== b)) return undefined;
  const { crc32 } = await import("node:zlib");
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const types: string[] = [];
  let offset = 8;
  while (offset + 12 <= bytes.length) {
    const length = view.getUint32(offset);
    const end = offset + 8 + length;
    if (end + 4 > bytes.length) return undefined;
    if (view.getUint32(end) !== crc32(bytes.subarray(offset + 4, end))) return undefined;
    types.push(String.fromCharCode(...bytes.subarray(offset + 4, offset + 8)));
    offset = end + 4;
  }
  if (offset !== bytes.length || types[0] !== "IHDR" || types.at(-1) !== "IEND") return undefined;
  return { width: view.getUint32(16), height: view.getUint32(20) };
}
