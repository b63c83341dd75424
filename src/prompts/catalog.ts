/**
 * The prompt catalogue, beside the tool catalogue (src/catalog.ts): every PromptDef, and the completers
 * of resource-template variables. A prompt is offered when every toolset it chains is enabled.
 */
import type { ToolsetName } from "../config.ts";
import { compoundDossier } from "./compound_dossier.ts";
import { pdfNames } from "./completions.ts";
import { geneBrief } from "./gene_brief.ts";
import { literatureReview } from "./literature_review.ts";
import { pdfDigest } from "./pdf_digest.ts";
import type { Completer, PromptDef } from "./prompt_def.ts";

export const PROMPTS: readonly PromptDef[] = [literatureReview, compoundDossier, geneBrief, pdfDigest];

export function enabledPrompts(toolsets: readonly ToolsetName[]): PromptDef[] {
  return PROMPTS.filter((p) => p.toolsets.every((t) => toolsets.includes(t)));
}

/** completion/complete for `ref/resource`: template → variable → completer. */
export const RESOURCE_COMPLETIONS: Readonly<Record<string, Readonly<Record<string, Completer>>>> = {
  "pdf://files/{name}": { name: pdfNames },
};
