import assert from "node:assert/strict";
import { ToolError, UpstreamError } from "../../../src/core/errors.ts";
import { mapPubChemError } from "../../../src/sources/pubchem/faults.ts";
import { pngInfo } from "../../../src/sources/pubchem/depiction.ts";
import { fixtureBytes } from "../../helpers/runtime.ts";

Deno.test("pngInfo refuses a PNG that is cut short or has a corrupted byte", async () => {
  const whole = fixtureBytes("pubchem/built__png_cid_2244_large.png");
  assert.equal(await pngInfo(whole.subarray(0, Math.floor(whole.length / 2))), undefined, "cut in half");
  assert.equal(await pngInfo(whole.subarray(0, whole.length - 12)), undefined, "IEND missing");
  const flipped = whole.slice();
  flipped[100] ^= 0xff;
  assert.equal(await pngInfo(flipped), undefined, "a flipped byte breaks a CRC");
  const spliced = new Uint8Array([
    ...whole.subarray(0, 200),
    ...new TextEncoder().encode("garbage"),
    ...whole.subarray(200),
  ]);
  assert.equal(await pngInfo(spliced), undefined, "garbage spliced in");
  assert.equal(await pngInfo(new Uint8Array([...whole, 0])), undefined, "trailing bytes");
});

Deno.test("pngInfo reads the size from IHDR and refuses bytes that are not a PNG", async () => {
  assert.deepEqual(await pngInfo(fixtureBytes("pubchem/built__png_cid_2244_large.png")), { width: 300, height: 300 });
  assert.deepEqual(await pngInfo(fixtureBytes("pubchem/built__png_cid_2244_small.png")), { width: 100, height: 100 });
  assert.equal(await pngInfo(new TextEncoder().encode("<html><body>Service Unavailable</body></html>")), undefined);
  assert.equal(await pngInfo(fixtureBytes("pubchem/built__png_cid_2244_large.png").subarray(0, 20)), undefined);
  assert.equal(await pngInfo(new Uint8Array()), undefined);
});

Deno.test("PUG-View faults map like PUG REST ones", async (t) => {
  const context = { notFound: "No GHS data", notFoundHint: "Check the CID.", field: "cid", value: 1 };
  const http = (status: number, code: string) =>
    new UpstreamError({
      kind: "http",
      upstream: "pubchem",
      url: "https://x/",
      status,
      message: "http",
      body: JSON.stringify({ Fault: { Code: code, Message: "No data found" } }),
    });
  for (
    const [status, code, expected] of [
      [404, "PUGVIEW.NotFound", "ENTITY_NOT_FOUND"],
      [400, "PUGVIEW.BadRequest", "INVALID_INPUT"],
      [503, "PUGVIEW.ServerBusy", "RATE_LIMITED"],
      [504, "PUGVIEW.Timeout", "UPSTREAM_ERROR"],
    ] as const
  ) {
    await t.step(`${code} → ${expected}`, () => {
      const e = mapPubChemError(http(status, code), context);
      assert.ok(e instanceof ToolError);
      assert.equal(e.code, expected);
    });
  }
});
