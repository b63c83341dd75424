import assert from "node:assert/strict";
import { ALL_TOOLS } from "../../src/catalog.ts";
import { PROMPTS } from "../../src/prompts/catalog.ts";
import { connectClient, testRuntime } from "../helpers/runtime.ts";

const PDF_ROOT = new URL("../../files", import.meta.url).pathname;

async function session(env: Record<string, string> = {}) {
  return await connectClient(testRuntime({ env: { PDF_ROOT, ...env } }));
}

function text(result: { messages: { content: { type: string; text?: string } }[] }): string {
  return result.messages.map((m) => m.content.text ?? "").join("\n");
}

Deno.test("prompts/list offers the four research prompts with their arguments", async () => {
  const { client, close } = await session();
  try {
    assert.deepEqual(client.getServerCapabilities()?.prompts, { listChanged: false });
    assert.ok(client.getServerCapabilities()?.completions);
    const { prompts } = await client.listPrompts();
    assert.deepEqual(prompts.map((p) => p.name), ["literature_review", "compound_dossier", "gene_brief", "pdf_digest"]);
    const review = prompts.find((p) => p.name === "literature_review")!;
    assert.deepEqual(review.arguments, [
      { name: "topic", description: "What the review is about, e.g. protein structure prediction", required: true },
      { name: "since", description: "Earliest publication year, e.g. 2018", required: false },
      {
        name: "arxiv_category",
        description: "arXiv category to search the topic's preprints in, e.g. q-bio.BM",
        required: false,
      },
    ]);
  } finally {
    await close();
  }
});

Deno.test("prompts are offered only when every toolset they chain is enabled", async () => {
  const { client, close } = await session({ SCIENCE_MCP_TOOLSETS: "pdf,gene" });
  try {
    const { prompts } = await client.listPrompts();
    assert.deepEqual(prompts.map((p) => p.name), ["pdf_digest"]);
  } finally {
    await close();
  }
});

Deno.test("prompts/get chains the tools with the caller's arguments", async () => {
  const { client, close } = await session();
  try {
    const review = text(
      await client.getPrompt({
        name: "literature_review",
        arguments: { topic: "CRISPR base editing", since: "2019", arxiv_category: "q-bio.GN" },
      }),
    );
    assert.match(review, /Write a literature review on "CRISPR base editing" covering work since 2019\./);
    assert.match(
      review,
      /1\. search_papers \{"query":"CRISPR base editing","source":"openalex","sort":"citations","from_date":"2019","count":15\}/,
    );
    // The preprint step searches the topic within the category, from since (#34).
    assert.match(
      review,
      /search_papers \{"query":"cat:q-bio\.GN AND all:CRISPR AND all:base AND all:editing","source":"arxiv","sort":"date","from_date":"2019","count":10\}/,
    );
    assert.match(
      review,
      /searchPubMedArticles \{"queryTerm":"CRISPR base editing","filterByPublicationTypes":\["Review"\]/,
    );

    const dossier = text(
      await client.getPrompt({ name: "compound_dossier", arguments: { compound: "CC(=O)OC1=CC=CC=C1C(=O)O" } }),
    );
    assert.match(dossier, /search_compound_by_identifier \{"identifierType":"smiles","identifier":"CC\(=O\)OC1/);
    assert.match(dossier, /fetch_compound_properties \{"cids":\[<CID>\],"properties":\["MolecularFormula"/);
    assert.match(dossier, /fetch_compound_xrefs \{"cid":<CID>,"xrefTypes":\["PubMedID","RN"\]\}/);

    const brief = text(await client.getPrompt({ name: "gene_brief", arguments: { gene: "BRCA1" } }));
    assert.match(brief, /search_genes \{"query":"BRCA1","organism":"human"\}/);
  } finally {
    await close();
  }
});

Deno.test("prompts/get refuses unknown prompts, missing and unknown arguments with the list to use", async () => {
  const { client, close } = await session();
  try {
    await assert.rejects(client.getPrompt({ name: "nope" }), /Unknown prompt 'nope'.*literature_review/);
    await assert.rejects(client.getPrompt({ name: "gene_brief", arguments: {} }), /'gene' is required/);
    await assert.rejects(
      client.getPrompt({ name: "gene_brief", arguments: { gene: "TP53", species: "human" } }),
      /unknown argument 'species'.*Arguments: gene, organism\?/,
    );
    await assert.rejects(
      client.getPrompt({ name: "gene_brief", arguments: { gene: "x".repeat(501) } }),
      /at most 500 characters/,
    );
  } finally {
    await close();
  }
});

Deno.test("completion/complete offers arXiv categories, organisms, PubChem properties and PDF names", async () => {
  const { client, close } = await session();
  try {
    const complete = async (
      ref: { type: "ref/prompt"; name: string } | { type: "ref/resource"; uri: string },
      name: string,
      value: string,
    ) => (await client.complete({ ref, argument: { name, value } })).completion;

    const categories = await complete({ type: "ref/prompt", name: "literature_review" }, "arxiv_category", "q-bio.");
    assert.ok(categories.values.includes("q-bio.BM"), categories.values.join());
    assert.ok(categories.values.every((v) => v.startsWith("q-bio.")));
    const byName = await complete({ type: "ref/prompt", name: "literature_review" }, "arxiv_category", "machine");
    assert.deepEqual(byName.values, ["cs.LG", "stat.ML"]);
    const all = await complete({ type: "ref/prompt", name: "literature_review" }, "arxiv_category", "");
    assert.equal(all.values.length, 100);
    assert.ok((all.total ?? 0) > 100 && all.hasMore);

    const organisms = await complete({ type: "ref/prompt", name: "gene_brief" }, "organism", "ze");
    assert.equal(organisms.values[0], "zebrafish");

    const properties = await complete({ type: "ref/prompt", name: "compound_dossier" }, "properties", "XLogP,Mol");
    assert.deepEqual(properties.values, ["XLogP,MolecularFormula", "XLogP,MolecularWeight"]);

    const pdfs = await complete({ type: "ref/prompt", name: "pdf_digest" }, "pdf_name", "dvt");
    assert.deepEqual(pdfs.values, ["dvt_prophylaxis_review"]);
    const resource = await complete({ type: "ref/resource", uri: "pdf://files/{name}" }, "name", "");
    assert.ok(resource.values.includes("dvt_prophylaxis_review"));

    const none = await complete({ type: "ref/prompt", name: "gene_brief" }, "gene", "TP");
    assert.deepEqual(none, { values: [], total: 0, hasMore: false });
  } finally {
    await close();
  }
});

Deno.test("every tool a prompt names exists in the catalogue, and every example renders", () => {
  const names = new Set(ALL_TOOLS.map((t) => t.name));
  const optional = new Set(["fetch_compound_safety", "fetch_compound_bioactivity", "search_pdfs"]);
  for (const prompt of PROMPTS) {
    const rendered = prompt.render(prompt.example, names);
    const called = [...rendered.matchAll(/^\d+\. ([A-Za-z_]+) [{]/gm)].map((m) => m[1]);
    assert.ok(called.length >= 1, prompt.name);
    for (const tool of called) assert.ok(names.has(tool) || optional.has(tool), `${prompt.name} names ${tool}`);
    for (const arg of prompt.arguments.filter((a) => a.required)) assert.ok(prompt.example[arg.name], arg.name);
  }
});

Deno.test("prompts/get with an argument of the wrong type is -32602 with one sentence, not an internal error", async () => {
  const { client, close } = await session();
  try {
    for (
      const [params, pattern] of [
        [{ name: "gene_brief", arguments: { gene: 42 } }, /^.*'gene' must be text of at most 500 characters\./],
        [{ name: "gene_brief", arguments: ["TP53"] }, /arguments must be an object of text values/],
        [{ name: 7 }, /needs the prompt's name as text/],
      ] as const
    ) {
      const error = await client.request({ method: "prompts/get", params } as never).then(
        () => assert.fail("accepted"),
        (e: { code: number; message: string }) => e,
      );
      assert.equal(error.code, -32602);
      assert.match(error.message, pattern);
      assert.doesNotMatch(error.message, /invalid_type|"path"/);
    }
  } finally {
    await close();
  }
});
