/** MathML rendered as text, and the PubMed fields and citations that carry it. */
import assert from "node:assert/strict";
import { markupToText } from "../../../../src/sources/ncbi/pubmed/markup_text.ts";
import { parseESummaryPubMed } from "../../../../src/sources/ncbi/pubmed/parse_esummary.ts";
import { fixture } from "../../../helpers/runtime.ts";
import { mathmlToText } from "../../../../src/sources/ncbi/pubmed/mathml_text.ts";
import { formatCitations } from "../../../../src/sources/citations/format.ts";
import { pubmedToCsl } from "../../../../src/sources/citations/from/pubmed.ts";
import { article } from "./fixtures.ts";

const isotopes = () => article("built__mathml_isotopes_99000013.xml", "99000013");

Deno.test("mmultiscripts prescripts come before the base: isotopes read ³He and ¹²⁹Xe", () => {
  assert.equal(
    mathmlToText(
      "<mml:mmultiscripts><mml:mi>He</mml:mi><mml:mprescripts/><mml:none/><mml:mn>3</mml:mn></mml:mmultiscripts>",
    ),
    "³He",
  );
  // Pre-subscript (atomic number) and pre-superscript (mass number); post-scripts after the base.
  assert.equal(
    mathmlToText("<mmultiscripts><mi>C</mi><none/><mo>+</mo><mprescripts/><mn>6</mn><mn>14</mn></mmultiscripts>"),
    "¹⁴₆C⁺",
  );
  // The other common spelling of a prescript: msup on an empty base.
  assert.equal(mathmlToText("<msup><mrow/><mn>19</mn></msup><mi>F</mi>"), "¹⁹F");
});

Deno.test("mtext keeps its spaces, collapsed to one, so words never merge", () => {
  assert.equal(
    mathmlToText(
      "<mml:mrow><mml:mmultiscripts><mml:mtext>Xe</mml:mtext><mml:mprescripts/><mml:none/><mml:mn>129</mml:mn>" +
        "</mml:mmultiscripts><mml:mtext> </mml:mtext><mml:mtext>MRI</mml:mtext></mml:mrow>",
    ),
    "¹²⁹Xe MRI",
  );
  assert.equal(mathmlToText("<mi>x</mi><mtext>  for all\n  </mtext><mi>y</mi>"), "x for all y");
  // Layout whitespace between elements is not content.
  assert.equal(mathmlToText("<mrow>\n  <mi>a</mi>\n  <mi>b</mi>\n</mrow>"), "ab");
});

Deno.test("scripts use Unicode where every character has a form, else ^(…) and _(…)", () => {
  assert.equal(mathmlToText("<msup><mi>Ca</mi><mrow><mn>2</mn><mo>+</mo></mrow></msup>"), "Ca²⁺");
  assert.equal(mathmlToText("<msub><mi>x</mi><mi>ij</mi></msub>"), "xᵢⱼ");
  assert.equal(mathmlToText("<msubsup><mi>x</mi><mn>1</mn><mn>2</mn></msubsup>"), "x₁²");
  assert.equal(mathmlToText("<msup><mi>x</mi><mi>q</mi></msup><mi>y</mi>"), "x^(q)y");
  assert.equal(mathmlToText("<msub><mi>V</mi><mtext>defect</mtext></msub>"), "V_(defect)");
  assert.equal(mathmlToText("<msup><mi>f</mi><mo>′</mo></msup>"), "f′", "a prime is written after the base");
});

Deno.test("accents become combining marks; fractions, roots and fences read linearly", () => {
  assert.equal(mathmlToText("<mover><mi>V</mi><mo>.</mo></mover>"), "V\u0307");
  assert.equal(mathmlToText("<mover><mi>x</mi><mo>¯</mo></mover>"), "x\u0304");
  assert.equal(mathmlToText("<mfrac><mn>1</mn><mn>2</mn></mfrac>"), "1/2");
  assert.equal(mathmlToText("<mfrac><mrow><mi>a</mi><mo>+</mo><mi>b</mi></mrow><mi>c</mi></mfrac>"), "(a+b)/c");
  assert.equal(mathmlToText("<msqrt><mi>x</mi></msqrt>"), "√x");
  assert.equal(mathmlToText("<mroot><mi>x</mi><mn>3</mn></mroot>"), "³√x");
  assert.equal(mathmlToText('<mfenced open="[" close="]"><mi>a</mi><mi>b</mi></mfenced>'), "[a,b]");
  assert.equal(mathmlToText("<mi>r</mi><mo>&lt;</mo><mn>0.05</mn>"), "r < 0.05");
});

Deno.test("markupToText renders MathML, escaped operators survive, alttext only when MathML is empty", () => {
  assert.equal(
    markupToText("p <mml:math><mml:mi>r</mml:mi><mml:mo>&lt;</mml:mo><mml:mn>1</mml:mn></mml:math> q"),
    "p r < 1 q",
  );
  assert.equal(
    markupToText('<mml:math alttext="x^2"><mml:msup><mml:mi>x</mml:mi><mml:mn>2</mml:mn></mml:msup></mml:math>'),
    "x²",
  );
  assert.equal(markupToText('<mml:math alttext="x &amp; y"><mml:mrow/></mml:math>'), "x & y");
});

Deno.test("MathML in a PubMed title and abstract reads as the formula: prescripts, spaces, scripts", () => {
  const a = isotopes();
  assert.equal(a.title, "Hyperpolarized ³He and ¹²⁹Xe MRI of the lung: ventilation defects in asthma.");
  assert.equal(
    a.abstractText,
    "Ventilation images were acquired with ¹²⁹Xe MRI at 1.5 T. The apparent diffusion coefficient (Dₐₚₚ) and " +
      "the ventilation defect percent (VDP = V_(defect)/Vₜₒₜₐₗ×100) were compared with ³He in the same " +
      "participants; ¹⁹F images are given for reference, with r² > 0.8.",
  );
});

Deno.test("every citation format carries the rendered MathML title", async () => {
  const out = await formatCitations(pubmedToCsl(isotopes()), ["ris", "bibtex", "apa_string", "mla_string"]);
  const title = "Hyperpolarized ³He and ¹²⁹Xe MRI of the lung: ventilation defects in asthma";
  assert.ok(out.ris!.split("\n").includes(`TI  - ${title}`));
  assert.ok(
    out.ris!.split("\n").some((l) => l.startsWith("AB  - Ventilation images were acquired with ¹²⁹Xe MRI")),
  );
  assert.match(out.bibtex!, new RegExp(`\\n {2}title = \\{\\{${title}\\}\\},\\n`));
  assert.ok(out.apa_string!.includes(`(2023). ${title}. Environmental Science`), out.apa_string);
  assert.ok(
    out.mla_string!.includes("“Hyperpolarized ³He and ¹²⁹Xe MRI of the Lung: Ventilation Defects in Asthma.”"),
    out.mla_string,
  );
});

Deno.test("an ESummary title carrying MathML reads as the EFetch title does", () => {
  const [summary] = parseESummaryPubMed(fixture("ncbi/eutils/built__esummary_mathml_title.xml"), "fixture");
  assert.equal(summary.pmid, "99000013");
  assert.equal(summary.title, "Hyperpolarized ³He and ¹²⁹Xe MRI of the lung: ventilation defects in asthma.");
  assert.equal(summary.title, isotopes().title);
});
