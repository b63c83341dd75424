import assert from "node:assert/strict";
import { describeBudget, readBudget } from "../../../src/sources/openalex/budget.ts";
import { normalizeWorkId, parseCategoryRef, worksFilterFor } from "../../../src/sources/openalex/ids.ts";

Deno.test("parseCategoryRef accepts short and URL ids of every level, and builds the works filter", () => {
  const cases: [string, string | undefined][] = [
    ["T11636", "topics.id:T11636"],
    ["t11636", "topics.id:T11636"],
    ["https://openalex.org/T11636", "topics.id:T11636"],
    ["C71924100", "concepts.id:C71924100"],
    ["subfields/2718", "topics.subfield.id:2718"],
    ["https://openalex.org/fields/27", "topics.field.id:27"],
    ["domains/4", "topics.domain.id:4"],
    ["W2741809807", undefined],
    ["machine learning", undefined],
    ["27", undefined],
  ];
  for (const [raw, filter] of cases) {
    const ref = parseCategoryRef(raw);
    assert.equal(ref ? worksFilterFor(ref) : undefined, filter, raw);
  }
});

Deno.test("normalizeWorkId", () => {
  assert.equal(normalizeWorkId("https://openalex.org/W2741809807"), "W2741809807");
  assert.equal(normalizeWorkId("w123"), "W123");
  assert.equal(normalizeWorkId("T123"), undefined);
});

Deno.test("readBudget reads the USD and credit headers that are present", () => {
  const b = readBudget(
    new Headers({
      "x-ratelimit-limit-usd": "1",
      "x-ratelimit-remaining-usd": "0.979",
      "x-ratelimit-cost-usd": "0.0001",
    }),
  )!;
  assert.deepEqual(b, { limitUsd: 1, remainingUsd: 0.979, costUsd: 0.0001 });
  assert.equal(describeBudget(b), "OpenAlex budget: $0.979 of $1 left today; this request cost $0.0001.");
  const credits = readBudget(new Headers({ "x-ratelimit-remaining": "9990", "x-ratelimit-credits-used": "10" }))!;
  assert.equal(
    describeBudget(credits, 3),
    "OpenAlex budget: 9990 credits left; the last of 3 requests used 10 credits.",
  );
  assert.equal(readBudget(new Headers({ "content-type": "application/json" })), undefined);
});
