/**
 * Every prompt's tool calls work as written (#21): each call a prompt renders for its example, with its
 * placeholders filled as a model fills them from earlier steps, passes the tool's input schema exactly and, run
 * against the mock upstream, is not rejected as INVALID_INPUT.
 */
import assert from "node:assert/strict";
import { ALL_TOOLS } from "../../src/catalog.ts";
import { z } from "zod";
import { PROMPTS } from "../../src/prompts/catalog.ts";
import { searchTerms } from "../../src/prompts/pdf_digest.ts";
import { withTools } from "../helpers/tool_harness.ts";

const PDF_ROOT = new URL("../../files", import.meta.url).pathname;

/** What a model writes for each placeholder, taken from the mock's answers to the earlier steps. */
const FILLS: [RegExp, string][] = [
  [/<CID>/g, "2244"],
  [/"<NCBIGene CURIE[^>]*>"|"<same CURIE>"/g, '"NCBIGene:7157"'],
  [/"<up to 5 PMIDs[^>]*>"/g, '"27797938","30108519"'],
];

/** Every `tool {json}` a prompt text writes, for tools of the catalogue. */
function toolCalls(text: string): { tool: string; json: string }[] {
  const names = new Set(ALL_TOOLS.map((t) => t.name));
  const calls: { tool: string; json: string }[] = [];
  for (const match of text.matchAll(/\b([A-Za-z_]+) \{/g)) {
    if (!names.has(match[1])) continue;
    const start = match.index! + match[0].length - 1;
    let depth = 0;
    let inString = false;
    for (let i = start; i < text.length; i++) {
      const c = text[i];
      if (inString) {
        if (c === "\\") i++;
        else if (c === '"') inString = false;
      } else if (c === '"') inString = true;
      else if (c === "{") depth++;
      else if (c === "}" && --depth === 0) {
        calls.push({ tool: match[1], json: text.slice(start, i + 1) });
        break;
      }
    }
  }
  return calls;
}

function fill(json: string): string {
  return FILLS.reduce((text, [pattern, value]) => text.replace(pattern, value), json);
}

Deno.test("every call a prompt writes passes the tool's input schema and runs against the mock", async (t) => {
  await withTools({ env: { PDF_ROOT, NCBI_MAX_RETRIES: "0" }, driveClock: true }, async (h) => {
    const enabled = new Set(h.runtime.catalogue.tools.map((tool) => tool.name));
    for (const prompt of PROMPTS) {
      await t.step(prompt.name, async () => {
        const calls = toolCalls(prompt.render(prompt.example, enabled));
        assert.ok(calls.length >= 1, `${prompt.name} writes at least one call`);
        for (const { tool, json } of calls) {
          const args = JSON.parse(fill(json));
          const def = ALL_TOOLS.find((d) => d.name === tool)!;
          // The schema itself, without the lenient coercions invokeTool applies: a prompt writes exact calls.
          const parsed = z.strictObject(def.input.shape).safeParse(args);
          assert.ok(parsed.success, `${tool} ${json}: ${parsed.error?.issues[0].message}`);
          const result = await h.call(tool, args);
          const code = result.isError ? (result.structuredContent.error as { code: string }).code : undefined;
          assert.notEqual(code, "INVALID_INPUT", `${tool} ${json}: ${result.content[0].text}`);
        }
      });
    }
  });
});

Deno.test("pdf_digest searches the question's key terms, not the whole question", async () => {
  assert.deepEqual(searchTerms("What is the recommended heparin dose?"), ["heparin", "dose"]);
  await withTools({ env: { PDF_ROOT } }, async (h) => {
    const prompt = PROMPTS.find((p) => p.name === "pdf_digest")!;
    const text = prompt.render({
      question: "What is the recommended heparin dose?",
      pdf_name: "dvt_prophylaxis_review",
    }, new Set(["search_pdf"]));
    const [first] = toolCalls(text);
    const result = await h.call(first.tool, JSON.parse(first.json));
    assert.equal(JSON.parse(first.json).query, "heparin");
    const matches = (result.structuredContent as { matches?: unknown[] }).matches ?? [];
    assert.ok(matches.length > 0, result.content[0].text.slice(0, 300));
  });
});
