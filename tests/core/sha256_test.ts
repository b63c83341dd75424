import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import fc from "fast-check";
import { sha256Hex } from "../../src/core/sha256.ts";

Deno.test("sha256Hex matches the FIPS 180-4 test vectors", () => {
  assert.equal(sha256Hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  assert.equal(sha256Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  assert.equal(
    sha256Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
    "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
  );
});

Deno.test("sha256Hex agrees with node:crypto on any text, across block boundaries and non-ASCII", () => {
  for (const length of [54, 55, 56, 57, 63, 64, 65, 119, 120, 200]) {
    const text = "é".repeat(length);
    assert.equal(sha256Hex(text), createHash("sha256").update(text).digest("hex"), `length ${length}`);
  }
  fc.assert(fc.property(fc.string({ unit: "binary", maxLength: 300 }), (text) => {
    assert.equal(sha256Hex(text), createHash("sha256").update(text).digest("hex"));
  }));
});
