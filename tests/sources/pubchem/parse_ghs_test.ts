import assert from "node:assert/strict";
import { ToolError } from "../../../src/core/errors.ts";
import { parseGhs, parseHazard } from "../../../src/sources/pubchem/parse_ghs.ts";
import { summarizeGhs } from "../../../src/sources/pubchem/safety.ts";
import { pubchemFixture } from "./fakes.ts";

const URL = "https://pubchem.ncbi.nlm.nih.gov/rest/pug_view/data/compound/176/JSON?heading=GHS+Classification";

Deno.test("parseGhs groups acetic acid's recorded GHS items by source record", () => {
  const record = parseGhs(pubchemFixture("built__pugview_ghs_cid176.json"), URL, 176);
  assert.equal(record.cid, 176);
  assert.equal(record.name, "Acetic Acid");
  assert.deepEqual(
    record.classifications.map((c) => [c.source, c.record]),
    [
      ["European Chemicals Agency (ECHA)", "Acetic acid"],
      ["European Chemicals Agency (ECHA)", "Acetic Acid"],
      ["Hazardous Substances Data Bank (HSDB)", "ACETIC ACID"],
      ["NITE-CMC", "Acetic acid - FY2009"],
      ["NITE-CMC", "Acetic acid - FY2006"],
    ],
  );
  const echa = record.classifications[0];
  assert.equal(echa.signalWord, "Danger");
  assert.equal(
    echa.url,
    "https://echa.europa.eu/information-on-chemicals/cl-inventory-database/-/discli/details/85625",
  );
  assert.deepEqual(echa.pictograms, [{ code: "GHS02", name: "Flammable" }, { code: "GHS05", name: "Corrosive" }]);
  assert.deepEqual(echa.hazardStatements[0], {
    code: "H226",
    text: "Flammable liquid and vapor",
    hazardClass: "Flammable liquids",
    percent: 99.72,
  });
  assert.equal(echa.precautionaryCodes.length, 23);
  assert.equal(echa.precautionaryCodes[0], "P210");
  assert.ok(echa.precautionaryCodes.includes("P301+P330+P331"));
  assert.equal(echa.precautionaryCodes.at(-1), "P501", "the trailing 'and P501' is read");
  const aquatic = record.classifications[1];
  assert.equal(aquatic.signalWord, undefined, "this ECHA record gives no signal word");
  assert.deepEqual(aquatic.hazardStatements, [{
    code: "H411",
    text: "Toxic to aquatic life with long lasting effects",
    hazardClass: "Hazardous to the aquatic environment, long-term hazard",
    percent: 100,
  }]);
  assert.deepEqual(aquatic.precautionaryCodes, ["P273", "P391", "P501"]);
  assert.equal(record.classifications[2].hazardStatements[0].percent, undefined, "HSDB gives no notifier share");
  assert.equal(echa.notes.length, 4, "ECHA's notifier summary is kept as notes");
  assert.match(echa.notes[1], /^ECHA C&L Notifications Summary: Reported as not meeting GHS hazard criteria by 3 of/);
});

Deno.test("summarizeGhs: strictest signal word, every pictogram, each H-statement once with its sources", () => {
  const { classifications } = parseGhs(pubchemFixture("built__pugview_ghs_cid176.json"), URL, 176);
  const summary = summarizeGhs(classifications);
  assert.equal(summary.signalWord, "Danger");
  assert.deepEqual(summary.pictograms.map((p) => p.code), ["GHS02", "GHS05", "GHS07", "GHS08", "GHS09"]);
  assert.deepEqual(summary.hazardStatements.map((h) => h.code), [
    "H226",
    "H303",
    "H312",
    "H314",
    "H318",
    "H334",
    "H370",
    "H371",
    "H411",
  ]);
  const h226 = summary.hazardStatements[0];
  assert.deepEqual(h226.sources, [
    "European Chemicals Agency (ECHA)",
    "Hazardous Substances Data Bank (HSDB)",
    "NITE-CMC",
  ]);
  assert.equal(h226.percent, 99.72);
  assert.deepEqual(summary.hazardStatements.find((h) => h.code === "H303")!.sources, ["NITE-CMC"]);
  assert.equal(summarizeGhs([]).signalWord, undefined);
});

Deno.test("parseGhs reads a full PUG-View record the same way, and finds nothing where there is no GHS section", () => {
  const penicillin = parseGhs(pubchemFixture("cheminfo__pugview_penicillin.json"), URL, 2349);
  assert.equal(penicillin.cid, 2349);
  assert.deepEqual(penicillin.classifications, []);
});

Deno.test("parseGhs refuses an answer without a Record", () => {
  assert.throws(() => parseGhs('{"Fault":{"Code":"PUGVIEW.NotFound"}}', URL, 1), ToolError);
  assert.throws(() => parseGhs("<html>", URL, 1), ToolError);
});

Deno.test("parseHazard reads codes, combined codes, shares and hazard classes", () => {
  assert.deepEqual(parseHazard("H302+H312+H332 (12.5%): Harmful if swallowed, in contact with skin or if inhaled"), {
    code: "H302+H312+H332",
    text: "Harmful if swallowed, in contact with skin or if inhaled",
    percent: 12.5,
  });
  assert.deepEqual(parseHazard("EUH014: Reacts violently with water"), {
    code: "EUH014",
    text: "Reacts violently with water",
  });
  assert.deepEqual(
    parseHazard("H360FD: May damage fertility. May damage the unborn child [Danger Reproductive toxicity]"),
    {
      code: "H360FD",
      text: "May damage fertility. May damage the unborn child",
      hazardClass: "Reproductive toxicity",
    },
  );
  assert.deepEqual(parseHazard("H225 (> 99.9%): Highly Flammable liquid and vapor [Danger Flammable liquids]"), {
    code: "H225",
    text: "Highly Flammable liquid and vapor",
    hazardClass: "Flammable liquids",
    percent: 99.9,
    share: "> 99.9%",
  });
  assert.deepEqual(parseHazard("H373 **: May cause damage to organs"), {
    code: "H373",
    text: "May cause damage to organs",
    marks: "**",
  });
  assert.deepEqual(parseHazard("H361d *** (12%): Suspected of damaging the unborn child"), {
    code: "H361d",
    text: "Suspected of damaging the unborn child",
    percent: 12,
    marks: "***",
  });
  assert.deepEqual(parseHazard("H302 + H312: Harmful if swallowed or in contact with skin"), {
    code: "H302+H312",
    text: "Harmful if swallowed or in contact with skin",
  });
  assert.equal(parseHazard("H225 (>99.9%): Highly Flammable liquid and vapor")?.share, "> 99.9%");
  assert.equal(parseHazard("H319 (~55%): Causes serious eye irritation")?.share, "~ 55%");
  assert.equal(parseHazard("Not Classified"), undefined);
  assert.equal(parseHazard("Reported as not meeting GHS hazard criteria by 3 of 5044 companies."), undefined);
});

const FORMS_URL = "https://pubchem.ncbi.nlm.nih.gov/rest/pug_view/data/compound/999001/JSON?heading=GHS+Classification";

Deno.test("parseGhs keeps every statement form PubChem prints, and keeps unreadable lines verbatim", () => {
  const record = parseGhs(pubchemFixture("built__pugview_ghs_statement_forms.json"), FORMS_URL, 999001);
  const [echa, harmonised, repeated, supplier] = record.classifications;
  assert.deepEqual(echa.hazardStatements.map((h) => [h.code, h.percent, h.share]), [
    ["H225", 99.9, "> 99.9%"],
    ["H319", 99.9, "> 99.9%"],
  ]);
  assert.equal(echa.precautionaryCodes.length, 15);
  assert.equal(echa.precautionaryCodes.at(-1), "P501");
  assert.deepEqual(echa.unparsed, [], "PubChem's pointer sentence under the P-codes is no data");
  assert.deepEqual(harmonised.hazardStatements.map((h) => [h.code, h.marks]), [["H301", undefined], ["H370", "**"]]);
  assert.deepEqual(repeated.hazardStatements.map((h) => [h.code, h.marks, h.hazardClass]), [
    ["H361d", "***", "Reproductive toxicity"],
    ["H373", "**", "Specific target organ toxicity, repeated exposure"],
  ]);
  assert.deepEqual(supplier.hazardStatements.map((h) => [h.code, h.percent]), [
    ["H302+H312", 10.2],
    ["EUH014", undefined],
  ]);
  assert.deepEqual(supplier.pictograms, [{ code: "GHS07", name: "Irritant" }]);
  assert.deepEqual(supplier.precautionaryCodes, ["P261", "P264", "P270"]);
  assert.equal(supplier.unparsed.length, 3, "unknown icon, 'Not Classified', the P line with prose");
  assert.ok(supplier.unparsed.includes("Not Classified"));
  assert.ok(supplier.unparsed.some((u) => u.includes("unknown.png")));
  assert.ok(supplier.unparsed.includes("P261, P264, P270: see the supplier's safety data sheet"));
});

Deno.test("summarizeGhs keeps the printed share and the CLP asterisks of each statement", () => {
  const { classifications } = parseGhs(pubchemFixture("built__pugview_ghs_statement_forms.json"), FORMS_URL, 1);
  const summary = summarizeGhs(classifications);
  const h225 = summary.hazardStatements.find((h) => h.code === "H225")!;
  assert.equal(h225.share, "> 99.9%");
  assert.equal(summary.hazardStatements.find((h) => h.code === "H373")!.marks, "**");
  assert.deepEqual(summary.hazardStatements.map((h) => h.code), [
    "EUH014",
    "H225",
    "H301",
    "H302+H312",
    "H319",
    "H361d",
    "H370",
    "H373",
  ]);
});
