import assert from "node:assert/strict";
import { ProtocolError } from "../../../src/sdk.ts";
import { fixtureBytes } from "../../helpers/runtime.ts";
import { mockRoutesHarness } from "./helpers.ts";

Deno.test("pubchem://compound/{cid}/image resource", async (t) => {
  const h = await mockRoutesHarness();
  try {
    await t.step("is advertised as an image/png template", async () => {
      const { resourceTemplates } = await h.settle(h.client.listResourceTemplates());
      const template = resourceTemplates.find((r) => r.uriTemplate === "pubchem://compound/{cid}/image");
      assert.ok(template);
      assert.equal(template.mimeType, "image/png");
    });
    await t.step("reads the large PNG as a base64 blob", async () => {
      const { contents } = await h.settle(h.client.readResource({ uri: "pubchem://compound/2244/image" }));
      assert.equal(contents.length, 1);
      assert.equal(contents[0].uri, "pubchem://compound/2244/image");
      assert.equal(contents[0].mimeType, "image/png");
      assert.ok("blob" in contents[0], "a blob resource");
      const bytes = Uint8Array.from(atob(contents[0].blob as string), (c) => c.charCodeAt(0));
      assert.deepEqual(bytes, fixtureBytes("pubchem/built__png_cid_2244_large.png"));
      assert.equal(h.requests.at(-1)!.url.searchParams.get("image_size"), "large");
    });
    await t.step("shares the cache with get_compound_image_url: no second request", async () => {
      const before = h.requests.length;
      const result = await h.call("get_compound_image_url", { cid: 2244 });
      assert.equal(result.content[1]?.type, "image");
      assert.equal(h.requests.length, before);
    });
    await t.step("a CID without a depiction is resource-not-found", async () => {
      await assert.rejects(
        () => h.settle(h.client.readResource({ uri: "pubchem://compound/3672/image" })),
        (e) => e instanceof ProtocolError && e.code === -32602 && /3672/.test(e.message),
      );
    });
    await t.step("a non-numeric CID is invalid params, before any request", async () => {
      const before = h.requests.length;
      await assert.rejects(
        () => h.settle(h.client.readResource({ uri: "pubchem://compound/aspirin/image" })),
        (e) => e instanceof ProtocolError && e.code === -32602,
      );
      assert.equal(h.requests.length, before);
    });
  } finally {
    await h.close();
  }
});
