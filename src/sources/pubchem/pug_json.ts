/**
 * Shared pieces of PUG REST JSON: parsing a body, reading a `Fault` and telling a malformed answer
 * apart from a real one. PubChem sends faults with 4xx/5xx and, rarely, with 200, so every parser
 * checks for one before reading the payload.
 */
import { ToolError } from "../../core/errors.ts";

export type JsonObject = Record<string, unknown>;

export interface PugFault {
  /** e.g. `PUGREST.NotFound`, `PUGREST.BadRequest`, `PUGREST.ServerBusy`, `PUGREST.Timeout`. */
  code: string;
  message: string;
  details: string[];
}

/** Parses a PUG REST JSON body; anything that is not a JSON object is an upstream error. */
export function parsePugJson(text: string, url: string): JsonObject {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    throw malformed(url, "a body that is not JSON");
  }
  if (!isObject(doc)) throw malformed(url, "a JSON value that is not an object");
  return doc;
}

/** The `Fault` of a PUG REST body (JSON text or parsed), if it carries one. */
export function readFault(body: string | JsonObject | undefined): PugFault | undefined {
  let doc: unknown = body;
  if (typeof body === "string") {
    try {
      doc = JSON.parse(body);
    } catch {
      return undefined;
    }
  }
  if (!isObject(doc) || !isObject(doc.Fault)) return undefined;
  const fault = doc.Fault;
  return {
    code: typeof fault.Code === "string" ? fault.Code : "PUGREST.Unknown",
    message: typeof fault.Message === "string" ? fault.Message : "",
    details: Array.isArray(fault.Details) ? fault.Details.filter((d): d is string => typeof d === "string") : [],
  };
}

export function malformed(url: string, what: string): ToolError {
  return new ToolError(
    "UPSTREAM_ERROR",
    `PubChem answered ${what} (${url})`,
    "Retry shortly; if it persists PubChem may have changed its response format.",
  );
}

export function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Integers that arrive as numbers or numeric strings; anything else is dropped. */
export function toInt(value: unknown): number | undefined {
  const n = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
  return typeof n === "number" && Number.isSafeInteger(n) ? n : undefined;
}

/** Finite numbers that arrive as numbers or numeric strings (`"180.16"`); anything else is dropped. */
export function toNumber(value: unknown): number | undefined {
  const n = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
  return typeof n === "number" && Number.isFinite(n) ? n : undefined;
}

export function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
}

export function intList(value: unknown): number[] {
  if (!Array.isArray(value)) return [];
  return value.map(toInt).filter((n): n is number => n !== undefined);
}
