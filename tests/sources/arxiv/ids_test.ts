import assert from "node:assert/strict";
import { hasVersion, idFromAbsUrl, normalizeArxivId, stripVersion } from "../../../src/sources/arxiv/ids.ts";

Deno.test("normalizeArxivId accepts the forms callers paste", () => {
  const cases: [string, string | undefined][] = [
    ["2104.12255", "2104.12255"],
    ["2104.12255v1", "2104.12255v1"],
    [" arXiv:2104.12255v1 ", "2104.12255v1"],
    ["https://arxiv.org/abs/2104.12255v1", "2104.12255v1"],
    ["http://export.arxiv.org/pdf/2104.12255v2.pdf", "2104.12255v2"],
    ["https://arxiv.org/html/2501.11120v1/", "2501.11120v1"],
    ["0704.0001", "0704.0001"],
    ["hep-th/9901001", "hep-th/9901001"],
    ["math.AG/0309136v2", "math.AG/0309136v2"],
    ["abc", undefined],
    ["W2741809807", undefined],
    ["2104.123", undefined],
    ["../../etc/passwd", undefined],
  ];
  for (const [raw, expected] of cases) assert.equal(normalizeArxivId(raw), expected, raw);
});

Deno.test("version helpers split ids from versions", () => {
  assert.equal(stripVersion("2104.12255v3"), "2104.12255");
  assert.equal(stripVersion("hep-th/9901001v1"), "hep-th/9901001");
  assert.equal(hasVersion("2104.12255v3"), true);
  assert.equal(hasVersion("2104.12255"), false);
  assert.equal(idFromAbsUrl("http://arxiv.org/abs/cond-mat/0607501v2"), "cond-mat/0607501v2");
  assert.equal(idFromAbsUrl("https://arxiv.org/api/errors#incorrect_id_format_for_abc"), undefined);
});
