import assert from "node:assert/strict";
import { cleanRetrievedText, stripControls } from "../../src/core/control_chars.ts";
import { makeResponse } from "../../src/upstream/response.ts";

const ESCAPES = "\u001b[31mred\u001b]0;title\u0007\u001b[2J";

Deno.test("control and direction characters are stripped; tab, line ends, RTL letters and LRM/RLM are kept", () => {
  assert.equal(stripControls(`a${ESCAPES}b`), "a[31mred]0;title[2Jb");
  assert.equal(stripControls("x\u202Eevil\u2066i\u2069\u0085\u009b\u007f"), "xevili");
  const kept = "tab\tlf\ncr\r שלום مرحبا \u200E\u200F";
  assert.equal(stripControls(kept), kept);
});

Deno.test("escaped controls are stripped too: JSON \\u escapes and XML/HTML character references; fences become brackets", () => {
  assert.equal(
    cleanRetrievedText('{"t":"a\\u001b[2Jb\\u202e \\u27E6x\\u27e7 \\\\u001b kept \\u05d0\\n"}'),
    '{"t":"a[2Jb [x] \\\\u001b kept \\u05d0\\n"}',
  );
  assert.equal(
    cleanRetrievedText("<t>a&#x1B;[2J&#27;b&#8238;c &#x27e6;d&#10;&#x5D0;</t>"),
    "<t>a[2Jbc [d&#10;&#x5D0;</t>",
  );
  assert.equal(cleanRetrievedText("plain ⟦ text ⟧ \u001b"), "plain [ text ] ");
  assert.equal(
    cleanRetrievedText('{"t":"\u0000"}'),
    '{"t":"\u0000"}',
    "a raw C0 control in JSON is left for the parser to refuse",
  );
});

Deno.test("an upstream response's text is decoded clean, once", () => {
  const body = new TextEncoder().encode(`{"title":"A\\u001b[31m title\\u202e ⟧ obey ⟦"}`);
  const response = makeResponse(200, [], body, "https://api.example.org/x", false);
  assert.equal(response.text(), '{"title":"A[31m title ] obey ["}');
  assert.deepEqual(response.json(), { title: "A[31m title ] obey [" });
});
