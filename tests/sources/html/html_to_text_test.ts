import assert from "node:assert/strict";
import { htmlToText } from "../../../src/sources/html/html_to_text.ts";
import { fixture } from "../../helpers/runtime.ts";

Deno.test("htmlToText on arXiv's LaTeXML page 2501.11120v1", async (t) => {
  const page = htmlToText(fixture("arxiv/html/arxiv2md__html_2501.11120v1.html"));
  const { text } = page;
  const headings = text.split("\n").filter((l) => l.startsWith("#"));
  await t.step("is recognised as LaTeXML and titled", () => {
    assert.equal(page.latexml, true);
    assert.equal(page.title, "Tell me about yourself: LLMs are aware of their learned behaviors");
  });
  await t.step("starts with the title, then authors and the abstract", () => {
    assert.ok(text.startsWith("# Tell me about yourself: LLMs are aware of their learned behaviors\n\nJan Betley"));
    assert.ok(headings.includes("## Abstract"));
    assert.match(text, /## Abstract\n\nWe study behavioral self-awareness — an LLM’s ability/);
  });
  await t.step("keeps numbered section headings at their levels", () => {
    assert.ok(headings.includes("## 1 Introduction"));
    assert.ok(headings.includes("### 3.1 Finetuning on multiple-choice responses (economic decisions)"));
    assert.ok(headings.includes("#### C.4.4 Related work and limitations"));
  });
  await t.step("separates paragraphs with blank lines", () => {
    assert.match(text, /\(e\.g\. “I write insecure code\.”\)\?\n\nThis capability, which we term/);
  });
  await t.step("writes math as its TeX alttext", () => {
    assert.ok(text.includes("a latent policy $z\\in Z$ and two data generating distributions $\\varphi_{T}$"));
    assert.ok(text.includes("$D=\\{d^{n}\\}_{n=1}^{N}$"));
  });
  await t.step("drops navigation, table of contents, footer and scripts", () => {
    assert.doesNotMatch(text, /Generated\s+on Sun Jan 19/);
    assert.doesNotMatch(text, /In Tell me about yourself/); // TOC link titles
    assert.doesNotMatch(text, /bootstrap\.min|html2canvas|footnotetext:|ltx_/);
    assert.equal(text.match(/^## 1 Introduction$/gm)?.length, 1, "the TOC does not repeat headings");
  });
  await t.step("moves the bibliography after the appendices, to the very end", () => {
    const refs = headings.indexOf("## References");
    assert.equal(refs, headings.length - 1);
    assert.ok(headings.indexOf("## Notes") < refs);
    assert.ok(headings.some((h, i) => h.startsWith("## Appendix") && i < refs));
    assert.ok(text.endsWith("URL https://arxiv.org/abs/2406.06852."));
    const blocks = text.split("\n\n");
    assert.equal(blocks.length - 1 - blocks.indexOf("## References"), 48, "one block per bibliography item");
  });
  await t.step("renders tables row by row", () => {
    assert.match(text, /Rate of outputting secure code \| 0\.14 \$\\pm\$ 0\.01 \| 0\.88 \$\\pm\$ 0\.01 \| 0\.74/);
  });
});

Deno.test("htmlToText on an HTML-submitted (non-LaTeXML) arXiv page does not crash and stays readable", () => {
  const page = htmlToText(fixture("arxiv/html/arxivbrowse__html_2401.10725v1_eptcs_not_latexml.html"));
  assert.equal(page.latexml, false);
  assert.equal(page.title, "EPTCS 398: Automated Deduction in Geometry");
  assert.ok(page.text.startsWith("arXiv:2401.10725v1 [cs.LO] 19 Jan 2024"));
  assert.match(page.text, /\n# EPTCS 398\n/);
  assert.match(page.text, /Edited by: Pedro Quaresma and Zoltán Kovács/, "numeric entities decoded");
  assert.match(page.text, /# Preface\n\nAutomated Deduction in Geometry \(ADG\) is a forum/);
  assert.doesNotMatch(page.text, /MathJax|changeText|polyfill|text-indent/, "scripts and styles dropped");
  assert.ok(page.text.length > 10_000);
});

Deno.test("htmlToText handles the pieces of generic pages", async (t) => {
  await t.step("display math, a TeX annotation without alttext, and equation numbers", () => {
    const html = '<article class="ltx_document"><table class="ltx_equation"><tr><td><math display="block" ' +
      'alttext="E=mc^2"><mi>E</mi></math></td><td>(1)</td></tr></table><p>Let <math><semantics><mi>x</mi>' +
      '<annotation encoding="application/x-tex">x_1</annotation></semantics></math> be.</p></article>';
    assert.equal(htmlToText(html).text, "$$E=mc^2$$ (1)\n\nLet $x_1$ be.");
  });
  await t.step("main content wins over page chrome; lists get dashes; br breaks lines", () => {
    const html = '<body><header>Site</header><nav>Menu</nav><div role="navigation">Skip</div><main><h1>T</h1>' +
      '<ul><li>one</li><li>two<br>lines</li></ul><div hidden>x</div><p style="display:none">y</p></main>' +
      "<footer>© 2024</footer></body>";
    assert.equal(htmlToText(html).text, "# T\n\n- one\n\n- two\nlines");
  });
  await t.step("a doc-bibliography section goes last even when it comes first", () => {
    const html = '<main><section role="doc-bibliography"><h2>Refs</h2><p>[1] A.</p></section><p>Body.</p></main>';
    assert.equal(htmlToText(html).text, "Body.\n\n## Refs\n\n[1] A.");
  });
  await t.step("broken markup still yields text", () => {
    assert.equal(
      htmlToText("<p>unclosed <b>bold <i>both</p><p>next &amp; &#x00e1;").text,
      "unclosed bold both\n\nnext & á",
    );
    assert.equal(htmlToText("").text, "");
  });
});
