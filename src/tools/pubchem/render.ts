/** Text-block pieces the PubChem compound tools share. */

/**
 * The call that gets a compound's structure picture, so a model that read CIDs knows where the image is
 * without a new schema field.
 */
export function structureImageLine(cids: readonly number[]): string | undefined {
  if (cids.length === 0) return undefined;
  return `structure image: get_compound_image_url {"cid":${cids[0]}}${cids.length > 1 ? " (any CID above)" : ""}`;
}
