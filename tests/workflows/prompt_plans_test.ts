/**
 * Prompts that match the tools (#34): each prompt's plan, run step by step against the mock as a model runs
 * it, asks about the subject it was given. Every call carries the topic's terms (or an id an earlier step
 * found), a plan with a date range carries it in every search, and what the tools report they sent
 * (query_sent, the ESearch term) still holds both.
 */
import assert from "node:assert/strict";
import { PROMPTS } from "../../src/prompts/catalog.ts";
import { fill, toolCalls } from "../helpers/prompt_calls.ts";
import { type CallResult, withTools } from "../helpers/tool_harness.ts";

const PDF_ROOT = new URL("../../files", import.meta.url).pathname;

/** Per prompt: the words each step must carry, and the date range's first year when the plan has one. */
const SUBJECTS: Record<string, { terms: string[]; since?: string }> = {
  literature_review: { terms: ["protein", "structure", "prediction"], since: "2018" },
  gene_brief: { terms: ["TP53"] },
  compound_dossier: { terms: ["aspirin"] },
  pdf_digest: { terms: ["recommended", "heparin", "dose"] },
};

const data = (r: CallResult) => r.structuredContent as Record<string, unknown>;

/** What the tool says it sent upstream, where it says so. */
function sent(tool: string, answer: CallResult): string | undefined {
  if (tool === "search_papers") return data(answer).query_sent as string;
  if (tool === "searchPubMedArticles") {
    const { effectiveESearchTerm, searchParameters } = data(answer) as {
      effectiveESearchTerm: string;
      searchParameters: { dateRange?: { minDate: string } };
    };
    return `${effectiveESearchTerm} mindate=${searchParameters.dateRange?.minDate ?? ""}`;
  }
  return undefined;
}

Deno.test("every prompt's plan is about its subject in every step, within its date range", async (t) => {
  await withTools({ env: { PDF_ROOT }, driveClock: true }, async (h) => {
    const enabled = new Set(h.runtime.catalogue.tools.map((tool) => tool.name));
    for (const prompt of PROMPTS) {
      await t.step(prompt.name, async () => {
        const subject = SUBJECTS[prompt.name];
        assert.ok(subject, `add ${prompt.name} to SUBJECTS`);
        const calls = toolCalls(prompt.render(prompt.example, enabled));
        assert.ok(calls.length > 0);
        for (const { tool, json } of calls) {
          // A step that takes an id found by an earlier step is about the subject through that id.
          if (/<[^>]+>/.test(json)) continue;
          const args = JSON.parse(fill(json));
          const written = JSON.stringify(args).toLowerCase();
          for (const term of subject.terms) assert.ok(written.includes(term.toLowerCase()), `${tool} ${json}: ${term}`);
          if (subject.since) {
            assert.ok(
              args.from_date === subject.since || args.dateRange?.minDate === subject.since,
              `${tool} ${json} carries the date range from ${subject.since}`,
            );
          }
          const answer = await h.call(tool, args);
          assert.equal(answer.isError, undefined, `${tool} ${json}: ${answer.content[0].text.slice(0, 300)}`);
          const upstream = sent(tool, answer);
          if (upstream === undefined) continue;
          for (const term of subject.terms) {
            assert.match(upstream, new RegExp(term, "i"), `${tool} sent ${upstream}`);
          }
          // OpenAlex from_publication_date:2018-01-01, arXiv submittedDate:[201801010000 …], PubMed mindate.
          if (subject.since) assert.match(upstream, new RegExp(subject.since), `${tool} sent ${upstream}`);
        }
      });
    }
  });
});
