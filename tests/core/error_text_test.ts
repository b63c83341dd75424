/** The text block of a failed call: readable lines a text-only client hands to the model, not a JSON dump. */
import assert from "node:assert/strict";
import { errorResult, errorText } from "../../src/core/invoke.ts";

Deno.test("an error's text block names the code, what happened and what to do, one per line", () => {
  const text = errorText({
    code: "ENTITY_NOT_FOUND",
    message: "No compound has CID 999999999.",
    recovery_hint: "Find the CID with search_compound_by_identifier.",
  });
  assert.equal(
    text,
    "Error ENTITY_NOT_FOUND: No compound has CID 999999999.\n" +
      "recovery_hint: Find the CID with search_compound_by_identifier.",
  );
  assert.throws(() => JSON.parse(text));
});

Deno.test("an error's text quotes the offending input briefly, never the whole value", () => {
  const result = errorResult({
    code: "INVALID_INPUT",
    message: "query is too long.",
    recovery_hint: "Shorten query.",
    invalid_input: { field: "query", value: "x".repeat(5000) },
  });
  const text = result.content[0].text;
  assert.match(text, /^invalid_input: \{"field":"query","value":"x+…$/m);
  assert.ok(text.length < 500, `${text.length} characters`);
  assert.equal(result.isError, true);
  assert.deepEqual(Object.keys(result.structuredContent), ["error"]);
});
