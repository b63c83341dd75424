/**
 * zod schemas of the PubChem records the parsers read (property rows, assay-summary rows and records,
 * substances, PUG-View GHS items), and {@link shapeWarning}: a record that does not match is still read
 * as far as it can be and kept, and the caller gets one warning naming it and what differs. PubChem
 * changes formats quietly (the 2025 SMILES renaming); a changed record must show, never vanish.
 */
import { z } from "../../core/zod.ts";
import { COMPOUND_PROPERTIES, PROPERTY_KINDS } from "./types.ts";

const int = z.union([z.number().int(), z.string().regex(/^-?\d+$/)]);
const num = z.union([z.number(), z.string().regex(/^-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?$/)]);
const cellValue = z.union([z.string(), z.number()]);

/** One `PropertyTable.Properties` row: a CID and the computed properties, each of its kind. */
export const PROPERTY_ROW = z.object({
  CID: int,
  ...Object.fromEntries(
    COMPOUND_PROPERTIES.map((
      p,
    ) => [p, (PROPERTY_KINDS[p] === "text" ? z.string() : PROPERTY_KINDS[p] === "float" ? num : int).optional()]),
  ),
}).passthrough();

/** One `Table.Row` of `compound/cid/<cid>/assaysummary`: its cells, strings or numbers. */
export const ASSAY_TABLE_ROW = z.object({ Cell: z.array(cellValue) }).passthrough();

/** One `AssaySummaries.AssaySummary` record. */
export const ASSAY_SUMMARY = z.object({
  AID: int,
  Name: z.string().optional(),
  SourceName: z.string().optional(),
  Description: z.union([z.string(), z.array(z.string())]).optional(),
  Method: z.string().optional(),
  SIDCountAll: int.optional(),
  SIDCountActive: int.optional(),
  CIDCountAll: int.optional(),
  CIDCountActive: int.optional(),
  Target: z.array(
    z.object({
      Name: z.string().optional(),
      Accession: z.string().optional(),
      GeneID: int.optional(),
      GeneSymbol: z.string().optional(),
    }).passthrough(),
  ).optional(),
}).passthrough();

/** One `PC_Substances` record, as far as the tools read it. */
export const SUBSTANCE = z.object({
  sid: z.object({ id: int }).passthrough(),
  source: z.object({
    db: z.object({
      name: z.string(),
      source_id: z.union([z.object({ str: z.string() }).passthrough(), z.object({ id: int }).passthrough(), cellValue])
        .optional(),
    }).passthrough(),
  }).passthrough(),
  synonyms: z.array(z.string()).optional(),
  compound: z.array(z.object({ id: z.object({ type: z.string() }).passthrough() }).passthrough()).optional(),
}).passthrough();

/** One PUG-View `Information` item of a GHS Classification section. */
export const GHS_INFORMATION = z.object({
  ReferenceNumber: int.optional(),
  Name: z.string().optional(),
  Value: z.object({
    StringWithMarkup: z.array(
      z.object({
        String: z.string(),
        Markup: z.array(z.object({ URL: z.string().optional(), Extra: z.string().optional() }).passthrough())
          .optional(),
      }).passthrough(),
    ).optional(),
  }).passthrough(),
}).passthrough();

/**
 * A warning when `record` does not match `schema`, else undefined: what it is, where it differs, and
 * (so nothing is lost) the record as sent, cut to 300 characters.
 * @example shapeWarning(PROPERTY_ROW, { MolecularWeight: {} }, "PubChem property row 2")
 *   // "PubChem property row 2 does not match the expected shape (CID: …; MolecularWeight: …); kept as read: {…}"
 */
export function shapeWarning(schema: z.ZodType, record: unknown, what: string): string | undefined {
  const result = schema.safeParse(record);
  if (result.success) return undefined;
  const issues = result.error.issues.slice(0, 3).map((i) => `${i.path.join(".") || "record"}: ${i.message}`);
  const raw = JSON.stringify(record) ?? String(record);
  const shown = raw.length > 300 ? `${raw.slice(0, 299)}…` : raw;
  return `${what} does not match the expected shape (${issues.join("; ")}); kept as read: ${shown}`;
}
