import assert from "node:assert/strict";
import { UpstreamError } from "../../../src/core/errors.ts";
import { errorMessage, parseEntity, parseList } from "../../../src/sources/openalex/parse_list.ts";
import { fixture } from "../../helpers/runtime.ts";

const URL = "https://api.openalex.org/works";

Deno.test("parseList reads meta and results", async (t) => {
  await t.step("a first cursor page", () => {
    const list = parseList(fixture("openalex/openalexsdk__works_search_english_africa.json"), URL);
    assert.equal(list.meta.count, 4312);
    assert.equal(list.meta.perPage, 200);
    assert.match(list.meta.nextCursor ?? "", /^Ils4NS/);
    assert.equal(list.results.length, 200);
  });
  await t.step("the last page: empty results and no cursor", () => {
    const list = parseList(fixture("openalex/openalexpro__works_cursor_last_page_empty.json"), URL);
    assert.equal(list.meta.nextCursor, undefined);
    assert.deepEqual(list.results, []);
  });
  await t.step("a group_by answer has no results list: an error, not an empty list", () => {
    assert.throws(
      () => parseList(fixture("openalex/openalexpro__works_group_by_type_2026.json"), URL),
      (e) => e instanceof UpstreamError && e.kind === "parse",
    );
  });
  await t.step("HTML instead of JSON is a parse error", () => {
    assert.throws(() => parseList("<html>503</html>", URL), (e) => e instanceof UpstreamError && e.kind === "parse");
  });
});

Deno.test("parseEntity reads topics, concepts and hierarchy levels with their parents", () => {
  const topic = parseEntity(JSON.parse(fixture("openalex/openalexpython__T11636_topic.json")))!;
  assert.deepEqual(
    [topic.id, topic.level, topic.parent, topic.parentName],
    ["T11636", "topic", "subfields/2718", "Health Informatics"],
  );
  assert.equal(topic.worksCount, 42324);
  const concept = parseEntity(JSON.parse(fixture("openalex/openalexpython__C71924100_concept_level0.json")))!;
  assert.deepEqual([concept.id, concept.level, concept.name], ["C71924100", "concept", "Medicine"]);
  const fields = JSON.parse(fixture("openalex/built__fields_list.json")).results.map(parseEntity);
  assert.equal(fields.length, 26);
  assert.deepEqual([fields[16].id, fields[16].name, fields[16].parent], ["fields/27", "Medicine", "domains/4"]);
  assert.equal(parseEntity({ id: "https://openalex.org/X1", display_name: "?" }), undefined);
});

Deno.test("errorMessage shortens OpenAlex's 400 message that lists every valid filter", () => {
  const message = errorMessage(fixture("openalex/openalexpro__error_400_invalid_filter_field.json"))!;
  assert.match(message, /^Invalid query parameters error\.: DOESNTEXIST is not a valid field/);
  assert.ok(message.length <= 301);
  assert.equal(errorMessage("not json"), undefined);
  const cut = errorMessage(fixture("openalex/openalexpro__error_400_invalid_filter_field.json").slice(0, 4096));
  assert.match(cut ?? "", /DOESNTEXIST is not a valid field/, "a body cut at 4 KiB still yields the message");
});
