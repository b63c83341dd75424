import assert from "node:assert/strict";
import { errorOf, mockRoutesHarness, pubchemHarness, reply } from "./helpers.ts";

interface Safety {
  cid: number;
  name: string;
  signalWord: string;
  pictograms: { code: string; name: string }[];
  hazardStatements: { code: string; text: string; sources: string[]; percent?: number }[];
  sources: { source: string; record?: string; precautionaryCodes: string[]; hazardCodes: string[] }[];
}

Deno.test("fetch_compound_safety over MCP", async (t) => {
  const h = await mockRoutesHarness();
  try {
    await t.step("asks PUG-View for the GHS Classification heading of the CID", async () => {
      await h.call("fetch_compound_safety", { cid: 176 });
      const sent = h.requests.at(-1)!;
      assert.equal(sent.method, "GET");
      assert.equal(sent.url.pathname, "/pubchem/pug_view/data/compound/176/JSON");
      assert.equal(sent.url.searchParams.get("heading"), "GHS Classification");
      assert.match(sent.url.search, /heading=GHS\+Classification/);
    });
    await t.step("success: signal word, pictograms, H-statements with sources, P-codes per source", async () => {
      const result = await h.call("fetch_compound_safety", { cid: 176 });
      const s = result.structuredContent as unknown as Safety;
      assert.equal(s.cid, 176);
      assert.equal(s.name, "Acetic Acid");
      assert.equal(s.signalWord, "Danger");
      assert.deepEqual(s.pictograms[0], { code: "GHS02", name: "Flammable" });
      assert.equal(s.hazardStatements.length, 9);
      assert.deepEqual(s.hazardStatements.find((x) => x.code === "H314"), {
        code: "H314",
        text: "Causes severe skin burns and eye damage",
        hazardClass: "Skin corrosion/irritation",
        percent: 99.96,
        sources: ["European Chemicals Agency (ECHA)", "Hazardous Substances Data Bank (HSDB)", "NITE-CMC"],
      });
      assert.equal(s.sources.length, 5);
      assert.deepEqual(s.sources[1].precautionaryCodes, ["P273", "P391", "P501"]);
      assert.deepEqual(s.sources[1].hazardCodes, ["H411"]);
    });
    await t.step("the text block carries it all as Markdown, every statement with its source", async () => {
      const text = (await h.call("fetch_compound_safety", { cid: 176 })).content[0].text!;
      assert.match(text, /^# GHS hazards: Acetic Acid \(CID 176\)\n⟦\nsignal word: Danger\n/);
      assert.match(text, /pictograms: GHS02 Flammable, GHS05 Corrosive, GHS07 Irritant, GHS08 Health Hazard, GHS09/);
      assert.match(
        text,
        /- H226: Flammable liquid and vapor \(Flammable liquids; 99\.72% of ECHA notifiers\) — ECHA, HSDB, NITE-CMC/,
      );
      assert.match(text, /- ECHA "Acetic Acid": P273, P391, P501/);
      assert.match(
        text,
        /- NITE-CMC "Acetic acid - FY2006" = NITE-CMC: signal Danger; pictograms GHS02 GHS05 GHS07 GHS08/,
      );
      assert.ok(!text.trimStart().startsWith("{"), "not a JSON dump");
    });
    await t.step("no GHS data: ENTITY_NOT_FOUND that says absence is not safety", async () => {
      const error = errorOf(await h.call("fetch_compound_safety", { cid: 2244 }));
      assert.equal(error.code, "ENTITY_NOT_FOUND");
      assert.match(error.message, /no GHS classification for CID 2244/);
      assert.match(error.recovery_hint, /not a sign of safety/);
    });
    await t.step("bad input: non-positive, fractional or non-numeric CIDs, unknown keys", async () => {
      const before = h.requests.length;
      for (const args of [{ cid: 0 }, { cid: 1.5 }, { cid: "acetic acid" }, {}, { cid: 176, heading: "Toxicity" }]) {
        assert.equal(errorOf(await h.call("fetch_compound_safety", args)).code, "INVALID_INPUT");
      }
      assert.equal(h.requests.length, before);
    });
  } finally {
    await h.close();
  }
});

Deno.test("fetch_compound_safety: faults and empty records", async (t) => {
  const busyView = () =>
    new Response(JSON.stringify({ Fault: { Code: "PUGVIEW.ServerBusy", Message: "Too many requests" } }), {
      status: 503,
      headers: { "content-type": "application/json" },
    });
  await t.step("PUG-View's ServerBusy is RATE_LIMITED", async () => {
    const h = await pubchemHarness(busyView);
    try {
      assert.equal(errorOf(await h.call("fetch_compound_safety", { cid: 176 })).code, "RATE_LIMITED");
    } finally {
      await h.close();
    }
  });
  await t.step("a record without any GHS item is ENTITY_NOT_FOUND, not an empty success", async () => {
    const h = await pubchemHarness(reply("/pug_view/data/compound/2349/JSON", "cheminfo__pugview_penicillin.json"));
    try {
      assert.equal(errorOf(await h.call("fetch_compound_safety", { cid: 2349 })).code, "ENTITY_NOT_FOUND");
    } finally {
      await h.close();
    }
  });
});

Deno.test("fetch_compound_safety shows bounded shares, CLP asterisks and every line it could not read", async () => {
  const h = await pubchemHarness(
    reply("/pug_view/data/compound/999001/JSON", "built__pugview_ghs_statement_forms.json"),
  );
  try {
    const result = await h.call("fetch_compound_safety", { cid: 999001 });
    assert.notEqual(result.isError, true);
    const s = result.structuredContent as unknown as Safety & { warnings?: string[] };
    assert.ok(s.hazardStatements.some((x) => x.code === "H225" && x.percent === 99.9));
    assert.equal(s.warnings?.length, 1);
    const text = (result.content as { type: string; text: string }[])[0].text;
    assert.match(text, /- H225: Highly Flammable liquid and vapor \(Flammable liquids; > 99\.9% of ECHA notifiers\)/);
    assert.match(text, /- H373 \*\*: May causes damage to organs/);
    assert.match(text, /Built supplier "Built supplier record": Not Classified/);
    assert.match(text, /warning: 3 line\(s\) could not be read as GHS data/);
  } finally {
    await h.close();
  }
});
