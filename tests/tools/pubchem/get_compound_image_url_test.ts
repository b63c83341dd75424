import assert from "node:assert/strict";
import { errorOf, mockRoutesHarness, pubchemHarness } from "./helpers.ts";

Deno.test("get_compound_image_url over MCP", async (t) => {
  const h = await pubchemHarness();
  try {
    await t.step("success: builds the large PNG URL by default, without any request", async () => {
      const result = await h.call("get_compound_image_url", { cid: 2244 });
      assert.deepEqual(result.structuredContent, {
        cid: 2244,
        imageUrl: "https://pubchem.ncbi.nlm.nih.gov/rest/pug/compound/cid/2244/PNG?image_size=large",
      });
      assert.equal(h.requests.length, 0);
    });
    await t.step("success: size 'small'", async () => {
      const result = await h.call("get_compound_image_url", { cid: 3672, size: "small" });
      assert.equal(
        (result.structuredContent as { imageUrl: string }).imageUrl.endsWith("/cid/3672/PNG?image_size=small"),
        true,
      );
    });
    await t.step("not found / fault: no request is made, so an unknown CID still gets a URL (documented)", async () => {
      const result = await h.call("get_compound_image_url", { cid: 999999999 });
      assert.equal(result.isError, undefined);
      assert.equal(h.requests.length, 0);
    });
    await t.step("bad input: zero, negative, fractional or string CIDs and unknown sizes are refused", async () => {
      for (const args of [{ cid: 0 }, { cid: -5 }, { cid: 1.5 }, { cid: "2244" }, { cid: 2244, size: "huge" }]) {
        assert.equal(errorOf(await h.call("get_compound_image_url", args)).code, "INVALID_INPUT");
      }
    });
  } finally {
    await h.close();
  }
});

Deno.test("get_compound_image_url uses the configured PUBCHEM_BASE_URL", async () => {
  const h = await mockRoutesHarness();
  try {
    const result = await h.call("get_compound_image_url", { cid: 2244, size: "small" });
    assert.equal(
      (result.structuredContent as { imageUrl: string }).imageUrl,
      "http://mock.test/pubchem/pug/compound/cid/2244/PNG?image_size=small",
    );
  } finally {
    await h.close();
  }
});
