/**
 * Every prompt's tool calls work as written (#21): each call a prompt renders for its example, with its
 * placeholders filled as a model fills them from earlier steps, passes the tool's input schema exactly and, run
 * against the mock upstream, is not rejected as INVALID_INPUT.
 */
import assert from "node:assert/strict";
import { ALL_TOOLS } from "../../src/catalog.ts";
import { z } from "zod";
import { PROMPTS } from "../../src/prompts/catalog.ts";
import { withTools } from "../helpers/tool_harness.ts";
import { fill, toolCalls } from "../helpers/prompt_calls.ts";

const PDF_ROOT = new URL("../../files", import.meta.url).pathname;

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

Deno.test("pdf_digest makes one ranked search of the whole question, and its best passage is body text", async () => {
  const question = "What is the recommended heparin dose for DVT prophylaxis in trauma patients?";
  await withTools({ env: { PDF_ROOT } }, async (h) => {
    const prompt = PROMPTS.find((p) => p.name === "pdf_digest")!;
    const text = prompt.render({ question, pdf_name: "dvt_prophylaxis_review" }, new Set(["search_pdf"]));
    const calls = toolCalls(text);
    assert.equal(calls.length, 1, text);
    assert.doesNotMatch(text, /a whole question does not/);
    const args = JSON.parse(calls[0].json);
    assert.equal(args.query, question);
    const result = await h.call(calls[0].tool, args);
    const out = result.structuredContent as { mode: string; matches: string[]; match_details: { offset: number }[] };
    assert.equal(out.mode, "words");
    assert.ok(out.matches.length > 0, result.content[0].text.slice(0, 300));
    // The paper's reference list starts at "References" after the declarations; the best passage lies before it.
    const references = (await h.client.readResource({ uri: "pdf://files/dvt_prophylaxis_review" })).contents[0];
    const start = String((references as { text: string }).text).search(/^References$/m);
    assert.ok(start > 0);
    assert.ok(
      out.match_details[0].offset < start,
      `best passage at ${out.match_details[0].offset}, references at ${start}`,
    );
  });
});
