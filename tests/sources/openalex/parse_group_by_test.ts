import assert from "node:assert/strict";
import { UpstreamError } from "../../../src/core/errors.ts";
import { parseGroupBy } from "../../../src/sources/openalex/parse_group_by.ts";
import { fixture } from "../../helpers/runtime.ts";

const URL_ = "https://api.openalex.org/works?group_by=type";

Deno.test("parseGroupBy reads the recorded group_by answer: every group, the meta count as total", () => {
  const { total, groups } = parseGroupBy(fixture("openalex/openalexpro__works_group_by_type_2026.json"), URL_);
  assert.equal(total, 145616);
  assert.equal(groups.length, 18);
  assert.deepEqual(groups[0], { key: "https://openalex.org/types/article", displayName: "article", count: 129243 });
});

Deno.test("parseGroupBy keeps numeric year keys as strings", () => {
  const body = JSON.stringify({ meta: { count: 3 }, group_by: [{ key: 2020, key_display_name: "2020", count: 3 }] });
  assert.deepEqual(parseGroupBy(body, URL_).groups, [{ key: "2020", displayName: "2020", count: 3 }]);
});

Deno.test("a body without a group_by list, or a group without a count, is a parse error, never zero groups", () => {
  for (
    const body of [
      fixture("openalex/openalexpro__works_cursor_last_page_empty.json").replace('"group_by":[]', '"x":[]'),
      '{"meta":{},"group_by":[{"key":"2020"}]}',
      "<html>busy</html>",
    ]
  ) {
    assert.throws(() => parseGroupBy(body, URL_), (e) => e instanceof UpstreamError && e.kind === "parse", body);
  }
});
