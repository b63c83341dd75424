import assert from "node:assert/strict";
import { crc32 } from "node:zlib";
import { MAX_DEPICTION_BYTES } from "../../../src/sources/pubchem/depiction.ts";
import { fixtureBytes } from "../../helpers/runtime.ts";
import { busy, errorOf, mockRoutesHarness, pubchemHarness, reply, type ToolCall } from "./helpers.ts";

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** A PubChem route that answers the depiction of CID 2244 with the built PNG of the requested size. */
function png(cid = 2244) {
  return (req: { url: URL }) => {
    if (req.url.pathname !== `/rest/pug/compound/cid/${cid}/PNG`) return undefined;
    const size = req.url.searchParams.get("image_size");
    return new Response(new Uint8Array(fixtureBytes(`pubchem/built__png_cid_2244_${size}.png`)), {
      headers: { "content-type": "image/png" },
    });
  };
}

/** The PNG with its IHDR width and height replaced and the chunk's CRC recomputed: still a valid PNG. */
function withDimensions(png: Uint8Array, width: number, height: number): Uint8Array<ArrayBuffer> {
  const copy = new Uint8Array(png);
  const view = new DataView(copy.buffer);
  view.setUint32(16, width);
  view.setUint32(20, height);
  view.setUint32(29, crc32(copy.subarray(12, 29)));
  return copy;
}

function imageBlock(result: ToolCall): { type: string; data: string; mimeType: string } {
  const images = result.content.filter((c) => c.type === "image");
  assert.equal(images.length, 1, "one image block");
  return images[0] as unknown as { type: string; data: string; mimeType: string };
}

function decode(base64: string): Uint8Array {
  return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
}

/** Every chunk's CRC checks out and the file ends with IEND: a whole PNG, not just its first bytes. */
function assertWholePng(bytes: Uint8Array): void {
  assert.deepEqual([...bytes.subarray(0, 8)], PNG_SIGNATURE);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let offset = 8;
  let last = "";
  while (offset < bytes.length) {
    const length = view.getUint32(offset);
    last = String.fromCharCode(...bytes.subarray(offset + 4, offset + 8));
    assert.equal(view.getUint32(offset + 8 + length), crc32(bytes.subarray(offset + 4, offset + 8 + length)), last);
    offset += 12 + length;
  }
  assert.equal(last, "IEND");
}

Deno.test("get_compound_image_url over MCP", async (t) => {
  const h = await pubchemHarness(
    png(),
    reply(/^\/pug\/compound\/cid\/999999999\/PNG$/, "metmashr__fault_name_no_hit_cids.json", 404),
    reply(/^\/pug\/compound\/cid\/7\/PNG$/, "built__fault_server_busy.json", 503),
  );
  try {
    await t.step("success: the PNG comes as an image block, the URL and byte size as structuredContent", async () => {
      const result = await h.call("get_compound_image_url", { cid: 2244 });
      const block = imageBlock(result);
      assert.equal(block.type, "image");
      assert.equal(block.mimeType, "image/png");
      const bytes = decode(block.data);
      assertWholePng(bytes);
      assert.equal(h.requests.length, 1);
      assert.deepEqual(bytes, fixtureBytes("pubchem/built__png_cid_2244_large.png"));
      assert.ok(bytes.length <= MAX_DEPICTION_BYTES);
      assert.deepEqual(result.structuredContent, {
        cid: 2244,
        imageUrl: "https://pubchem.ncbi.nlm.nih.gov/rest/pug/compound/cid/2244/PNG?image_size=large",
        bytes: bytes.length,
        width: 300,
        height: 300,
      });
      assert.ok(!JSON.stringify(result.structuredContent).includes(block.data.slice(0, 40)), "no base64 in JSON");
      assert.equal(result.content[0].type, "text");
      assert.match(result.content[0].text!, /image: attached below \(image\/png, 300×300 px/);
    });
    await t.step("a repeat call is served from the cache: one upstream request for two calls", async () => {
      const before = h.requests.length;
      const result = await h.call("get_compound_image_url", { cid: 2244 });
      assert.equal(h.requests.length, before, "no new request");
      assertWholePng(decode(imageBlock(result).data));
    });
    await t.step("size 'small' asks PubChem for the small image", async () => {
      const result = await h.call("get_compound_image_url", { cid: 2244, size: "small" });
      assert.equal(h.requests.at(-1)!.url.searchParams.get("image_size"), "small");
      assert.equal(h.requests.at(-1)!.url.pathname, "/rest/pug/compound/cid/2244/PNG");
      const s = result.structuredContent as { width: number; bytes: number };
      assert.equal(s.width, 100);
      assert.equal(decode(imageBlock(result).data).length, s.bytes);
    });
    await t.step("inline false: URL only, no request, no image block", async () => {
      const before = h.requests.length;
      const result = await h.call("get_compound_image_url", { cid: 3672, inline: false, size: "small" });
      assert.equal(h.requests.length, before);
      assert.deepEqual(result.content.map((c) => c.type), ["text"]);
      assert.deepEqual(result.structuredContent, {
        cid: 3672,
        imageUrl: "https://pubchem.ncbi.nlm.nih.gov/rest/pug/compound/cid/3672/PNG?image_size=small",
      });
      assert.match(result.content[0].text!, /not attached/);
    });
    await t.step("not found: no depiction is ENTITY_NOT_FOUND with a hint", async () => {
      const error = errorOf(await h.call("get_compound_image_url", { cid: 999999999 }));
      assert.equal(error.code, "ENTITY_NOT_FOUND");
      assert.match(error.message, /no structure depiction for CID 999999999/);
      assert.match(error.recovery_hint, /search_compound_by_identifier/);
    });
    await t.step("fault: ServerBusy is RATE_LIMITED", async () => {
      assert.equal(errorOf(await h.call("get_compound_image_url", { cid: 7 })).code, "RATE_LIMITED");
    });
    await t.step(
      "bad input: zero, negative, fractional or non-numeric CIDs, unknown sizes, non-boolean inline",
      async () => {
        const before = h.requests.length;
        for (
          const args of [{ cid: 0 }, { cid: -5 }, { cid: 1.5 }, { cid: "aspirin" }, { cid: 2244, size: "huge" }, {
            cid: 2244,
            inline: "yes",
          }]
        ) {
          assert.equal(errorOf(await h.call("get_compound_image_url", args)).code, "INVALID_INPUT");
        }
        assert.equal(h.requests.length, before);
      },
    );
  } finally {
    await h.close();
  }
});

Deno.test("get_compound_image_url refuses a body that is not a PNG or is over the cap", async (t) => {
  const html = () => new Response("<html>maintenance</html>", { headers: { "content-type": "text/html" } });
  const huge = () =>
    new Response(new Uint8Array(MAX_DEPICTION_BYTES + 1), { headers: { "content-type": "image/png" } });
  await t.step("an HTML page with status 200 is UPSTREAM_ERROR, not an image", async () => {
    const h = await pubchemHarness(html);
    try {
      const error = errorOf(await h.call("get_compound_image_url", { cid: 2244 }));
      assert.equal(error.code, "UPSTREAM_ERROR");
      assert.match(error.message, /not a PNG/);
    } finally {
      await h.close();
    }
  });
  for (const [width, height] of [[20_000, 20_000], [2 ** 31, 2 ** 31], [0, 300]]) {
    await t.step(`a whole PNG whose header claims ${width}×${height} px is UPSTREAM_ERROR, not attached`, async () => {
      const claims = () =>
        new Response(withDimensions(fixtureBytes("pubchem/built__png_cid_2244_large.png"), width, height), {
          headers: { "content-type": "image/png" },
        });
      const h = await pubchemHarness(claims);
      try {
        const result = await h.call("get_compound_image_url", { cid: 2244 });
        assert.equal(result.content.filter((c) => c.type === "image").length, 0);
        const error = errorOf(result);
        assert.equal(error.code, "UPSTREAM_ERROR");
        assert.match(error.message, new RegExp(`claims ${width}×${height} pixels`));
      } finally {
        await h.close();
      }
    });
  }
  await t.step("a body over the byte cap is PAYLOAD_TOO_LARGE with a hint to ask for less", async () => {
    const h = await pubchemHarness(huge);
    try {
      const error = errorOf(await h.call("get_compound_image_url", { cid: 2244 }));
      assert.equal(error.code, "PAYLOAD_TOO_LARGE");
      assert.match(error.recovery_hint, /size 'small'|inline false/);
    } finally {
      await h.close();
    }
  });
});

Deno.test("get_compound_image_url against the mock routes uses the configured PUBCHEM_BASE_URL", async () => {
  const h = await mockRoutesHarness();
  try {
    const result = await h.call("get_compound_image_url", { cid: 2244, size: "small" });
    assert.equal(
      (result.structuredContent as { imageUrl: string }).imageUrl,
      "http://mock.test/pubchem/pug/compound/cid/2244/PNG?image_size=small",
    );
    assert.deepEqual(decode(imageBlock(result).data), fixtureBytes("pubchem/built__png_cid_2244_small.png"));
    assert.equal(h.requests.length, 1);
    assert.equal(errorOf(await h.call("get_compound_image_url", { cid: 3672 })).code, "ENTITY_NOT_FOUND");
  } finally {
    await h.close();
  }
});

Deno.test("get_compound_image_url: ServerBusy on every request is RATE_LIMITED", async () => {
  const h = await pubchemHarness(busy);
  try {
    assert.equal(errorOf(await h.call("get_compound_image_url", { cid: 2244 })).code, "RATE_LIMITED");
  } finally {
    await h.close();
  }
});
