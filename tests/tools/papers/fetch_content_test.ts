import assert from "node:assert/strict";
import { htmlToText } from "../../../src/sources/html/html_to_text.ts";
import type { PdfExtractor, PdfText } from "../../../src/sources/pdf/types.ts";
import { fixture, fixtureBytes } from "../../helpers/runtime.ts";
import { type CallResult, errorOf, papersClient, structured } from "./mock.ts";

interface Content {
  id: string;
  title: string | null;
  authors: string[];
  date: string | null;
  abstract?: string;
  categories?: string[];
  comment?: string;
  pdf_url?: string;
  url: string;
  content_format: string;
  content_url: string;
  text: string;
  offset: number;
  returned_chars: number;
  total_chars: number;
  next_offset?: number;
  warnings?: { code: string; message: string }[];
}

/** The AbstractOnly fallback of a call that found no full text: its warning message and the sources tried. */
function abstractOnly(result: CallResult): { message: string; tried: string; out: Content } {
  const out = structured<Content & { tried?: { what: string; request_url: string; outcome: string }[] }>(result);
  assert.equal(out.content_format, "abstract");
  const warning = out.warnings?.find((w) => w.code === "AbstractOnly");
  assert.ok(warning, JSON.stringify(out.warnings));
  return {
    message: warning.message,
    tried: (out.tried ?? []).map((t) => `${t.what} (${t.request_url}): ${t.outcome}`).join("; "),
    out,
  };
}

/** A PDF extractor that records what it was given and answers with fixed pages. */
function scriptedExtractor(pages: string[]): PdfExtractor & { seen: Uint8Array[] } {
  const seen: Uint8Array[] = [];
  return {
    seen,
    extract(bytes): Promise<PdfText> {
      seen.push(bytes);
      return Promise.resolve({ pageCount: pages.length, pages });
    },
    close: () => Promise.resolve(),
  };
}

Deno.test("fetch_content arXiv: LaTeXML HTML, paged, reassembles exactly and fetches once", async () => {
  const { call, close, fetch } = await papersClient();
  try {
    const expected = htmlToText(fixture("arxiv/html/arxiv2md__html_2501.11120v1.html")).text;
    const first = structured<Content>(
      await call("fetch_content", { source: "arxiv", id: "arXiv:2501.11120v1", max_chars: 20_000 }),
    );
    assert.equal(first.id, "2501.11120v1");
    assert.equal(first.title, "Tell me about yourself: LLMs are aware of their learned behaviors");
    assert.equal(first.authors.length, 6);
    assert.equal(first.content_format, "html");
    assert.equal(first.content_url, "http://mock.test/arxiv-web/html/2501.11120v1");
    assert.equal(first.url, "https://arxiv.org/abs/2501.11120v1");
    assert.equal(first.total_chars, expected.length);
    assert.ok(first.returned_chars <= 20_000 && first.returned_chars >= 16_000);
    assert.ok(
      first.text.endsWith("\n\n") || first.text.endsWith("\n") || first.text.endsWith(" "),
      "cut on a boundary",
    );
    const requestsAfterFirst = fetch.requests.length;
    let text = first.text;
    let next = first.next_offset;
    let pages = 1;
    while (next !== undefined) {
      const page = structured<Content>(
        await call("fetch_content", { source: "arxiv", id: "2501.11120v1", offset: next, max_chars: 20_000 }),
      );
      assert.equal(page.offset, next);
      text += page.text;
      next = page.next_offset;
      pages++;
    }
    assert.equal(text, expected, "the pages concatenate to the full text");
    assert.ok(pages >= 9);
    assert.equal(fetch.requests.length, requestsAfterFirst, "later pages come from the text cache");
    const past = errorOf(await call("fetch_content", { source: "arxiv", id: "2501.11120v1", offset: expected.length }));
    assert.equal(past.code, "INVALID_INPUT");
  } finally {
    await close();
  }
});

Deno.test("fetch_content arXiv falls back to ar5iv, then to the PDF", async (t) => {
  await t.step("ar5iv when arXiv has no HTML", async () => {
    const { call, close, fetch } = await papersClient();
    try {
      const out = structured<Content>(await call("fetch_content", { source: "arxiv", id: "1605.08386" }));
      assert.equal(out.id, "1605.08386v1");
      assert.equal(out.content_format, "ar5iv");
      assert.deepEqual(out.categories, ["math.CO", "math.ST"]);
      assert.match(
        out.text,
        /^# Heat-bath random walks with Markov bases\n\nCaprice Stanley Tobias Windisch\n\n## Abstract/,
      );
      assert.deepEqual(fetch.requests.map((r) => r.url.pathname).filter((p) => !p.startsWith("/arxiv-api")), [
        "/arxiv-web/html/1605.08386",
        "/ar5iv/html/1605.08386",
      ]);
    } finally {
      await close();
    }
  });
  await t.step("the PDF through the extractor, with progress notifications", async () => {
    const extractor = scriptedExtractor(["  Quantum Criticality page one ", "", "page two"]);
    const { call, close } = await papersClient({ seams: { extractor } });
    try {
      const progress: number[] = [];
      const out = structured<Content>(
        await call("fetch_content", { source: "arxiv", id: "1111.2011v2" }, (p) => progress.push(p.progress)),
      );
      assert.equal(out.content_format, "pdf");
      assert.equal(out.content_url, "http://mock.test/arxiv-web/pdf/1111.2011v2");
      assert.equal(out.text, "Quantum Criticality page one\n\npage two");
      assert.equal(
        out.title,
        "Quantum Criticality for Extended Nodes on a Bethe Lattice in the Large Connectivity Limit",
      );
      assert.equal(new TextDecoder().decode(extractor.seen[0].subarray(0, 5)), "%PDF-");
      assert.ok(progress.length >= 3, `progress notifications: ${progress.length}`);
    } finally {
      await close();
    }
  });
});

Deno.test("fetch_content arXiv failures are specific", async (t) => {
  const { call, close, fetch } = await papersClient();
  try {
    await t.step("no HTML, no ar5iv, no PDF: the abstract, naming each attempt", async () => {
      const { message, tried, out } = abstractOnly(
        await call("fetch_content", { source: "arxiv", id: "2104.12255v1" }),
      );
      const steps = "arXiv HTML (http://mock.test/arxiv-web/html/2104.12255v1): not found (HTTP 404); " +
        "ar5iv (http://mock.test/ar5iv/html/2104.12255): not found (HTTP 404); " +
        "arXiv PDF (http://mock.test/arxiv-web/pdf/2104.12255v1): not found (HTTP 404)";
      assert.equal(tried, steps);
      assert.ok(
        message.startsWith(
          "No open full text (every source tried is listed with its outcome): this is the arXiv abstract.",
        ),
        message,
      );
      assert.equal(out.url, "https://arxiv.org/abs/2104.12255v1");
      assert.match(out.text, /^# .+\n\n## Abstract\n\n\S/);
      assert.ok(out.abstract && out.text.includes(out.abstract));
    });
    await t.step("an id arXiv does not know is ENTITY_NOT_FOUND", async () => {
      assert.equal(errorOf(await call("fetch_content", { source: "arxiv", id: "0000.0000" })).code, "ENTITY_NOT_FOUND");
    });
    await t.step("a malformed id is refused before any request", async () => {
      const before = fetch.requests.length;
      const error = errorOf(await call("fetch_content", { source: "arxiv", id: "W2741809807" }));
      assert.equal(error.code, "INVALID_INPUT");
      assert.match(error.recovery_hint, /source=openalex/);
      assert.equal(fetch.requests.length, before);
    });
  } finally {
    await close();
  }
});

Deno.test("fetch_content arXiv takes metadata from the abstract page when the API is throttled", async () => {
  const paper = `<article class="ltx_document"><h1>Learning Knowledge Graph-based World Models</h1>${
    "<p>World models improve a learning agent's ability to operate in situated environments.</p>".repeat(10)
  }</article>`;
  const { call, close } = await papersClient({
    routes: [(req) => {
      if (req.url.pathname === "/arxiv-api/query") return new Response("Rate exceeded.");
      if (req.url.pathname === "/arxiv-web/html/2106.09608") {
        return new Response(paper, { headers: { "content-type": "text/html" } });
      }
      return undefined;
    }],
  });
  try {
    const out = structured<Content>(await call("fetch_content", { source: "arxiv", id: "2106.09608" }));
    assert.equal(out.id, "2106.09608v2");
    assert.deepEqual(out.authors, ["Prithviraj Ammanabrolu", "Mark O. Riedl"]);
    assert.equal(out.content_format, "html");
    // The page's metadata table keeps the categories (primary first) and the comment.
    assert.deepEqual(out.categories, ["cs.LG", "cs.AI", "cs.CL"]);
    assert.equal(out.comment, "Camera read, in Proceedings of NeurIPS 2021 Main Conference");
    assert.equal(out.warnings?.[0].code, "MetadataFromAbstractPage");
    assert.doesNotMatch(out.warnings?.[0].message ?? "", /no categories/);
  } finally {
    await close();
  }
});

Deno.test("fetch_content arXiv refuses an API answer about another paper", async (t) => {
  for (const [what, id] of [["another id", "2104.12255"], ["another version of the same id", "1605.08386v2"]]) {
    await t.step(what, async () => {
      // The recorded answer for 1605.08386v1 served whatever was asked for.
      const { call, close } = await papersClient({
        routes: [
          (req) =>
            req.url.pathname === "/arxiv-api/query"
              ? new Response(fixture("arxiv/api/arxivpy__id_1605.08386.atom.xml"), {
                headers: { "content-type": "application/atom+xml" },
              })
              : undefined,
        ],
      });
      try {
        const error = errorOf(await call("fetch_content", { source: "arxiv", id }));
        assert.equal(error.code, "UPSTREAM_ERROR");
        assert.equal(
          error.message,
          `arXiv answered the request for ${id} with 1605.08386v1, not the paper asked for.`,
        );
      } finally {
        await close();
      }
    });
  }
});

Deno.test("fetch_content arXiv finds the requested entry in a feed that holds several", async () => {
  // The mock answers cond-mat/0607501 with the recorded 2016 feed, whose first entry is 1111.2011v2.
  const { call, close } = await papersClient({
    routes: [(req) => req.url.pathname.startsWith("/arxiv-web/") ? new Response("gone", { status: 404 }) : undefined],
  });
  try {
    const result = await call("fetch_content", { source: "arxiv", id: "cond-mat/0607501" });
    assert.equal(abstractOnly(result).out.id, "cond-mat/0607501v2");
  } finally {
    await close();
  }
});

Deno.test("fetch_content OpenAlex", async (t) => {
  await t.step("an open-access PDF from the publisher, metadata from OpenAlex; key notices go to the log", async () => {
    const extractor = scriptedExtractor(["The state of OA", "Results"]);
    const { call, close, fetch, logs } = await papersClient({
      seams: { extractor },
      routes: [
        (req) =>
          req.url.pathname === "/publisher/peerj.com/articles/4375.pdf"
            ? new Response(fixtureBytes("arxiv/pdf/arxivpy__1111.2011v2.pdf").slice(), {
              headers: { "content-type": "application/pdf" },
            })
            : undefined,
      ],
    });
    try {
      const out = structured<Content>(
        await call("fetch_content", { source: "openalex", id: "https://openalex.org/W2741809807" }),
      );
      assert.equal(out.id, "W2741809807");
      assert.equal(out.content_format, "pdf");
      assert.equal(out.text, "The state of OA\n\nResults");
      assert.match(out.abstract ?? "", /^Despite growing interest in Open Access/);
      assert.equal(out.url, "https://doi.org/10.7717/peerj.4375");
      // The operator's notices (no key, budget left) are logged, not read by the model (#34).
      assert.ok(!out.warnings?.some((w) => w.code.startsWith("OpenAlex")), JSON.stringify(out.warnings));
      assert.ok(logs.some((r) => r.code === "OpenAlexKeyMissing"));
      assert.ok(fetch.requests.some((r) => r.url.pathname === "/openalex/works/W2741809807"));
    } finally {
      await close();
    }
  });
  await t.step(
    "an id OpenAlex answers with another (merged) work is flagged, not passed off as the one asked for",
    async () => {
      const extractor = scriptedExtractor(["The state of OA"]);
      const { call, close } = await papersClient({
        seams: { extractor },
        routes: [
          (req) =>
            req.url.pathname === "/openalex/works/W1000000001"
              ? new Response(
                // The recorded W2741809807, its PDF link pointed at the mock publisher below.
                fixture("openalex/openalexpython__W2741809807_2025.json").replaceAll(
                  "https://peerj.com/articles/4375.pdf",
                  "http://mock.test/publisher/peerj.com/articles/4375.pdf",
                ),
                { headers: { "content-type": "application/json" } },
              )
              : undefined,
          (req) =>
            req.url.pathname === "/publisher/peerj.com/articles/4375.pdf"
              ? new Response(fixtureBytes("arxiv/pdf/arxivpy__1111.2011v2.pdf").slice(), {
                headers: { "content-type": "application/pdf" },
              })
              : undefined,
        ],
      });
      try {
        const out = structured<Content>(await call("fetch_content", { source: "openalex", id: "W1000000001" }));
        assert.equal(out.id, "W2741809807");
        const warning = out.warnings?.find((w) => w.code === "IdRedirected");
        assert.match(warning?.message ?? "", /^OpenAlex answered W1000000001 with work W2741809807/);
      } finally {
        await close();
      }
    },
  );
  await t.step("a publisher page with the full text when the PDF link is refused", async () => {
    const { call, close } = await papersClient({
      routes: [(req) => {
        if (req.url.pathname.startsWith("/publisher/www.biorxiv.org/")) {
          return new Response("Forbidden", { status: 403 });
        }
        if (req.url.pathname === "/publisher/doi.org/10.1101/097196") {
          return new Response(fixture("arxiv/html/arxiv2md__html_2501.11120v1.html"), {
            headers: { "content-type": "text/html" },
          });
        }
        return undefined;
      }],
    });
    try {
      const out = structured<Content>(await call("fetch_content", { source: "openalex", id: "W2581393460" }));
      assert.equal(out.content_format, "html");
      assert.ok(out.warnings?.some((w) => w.code === "PublisherPage"));
    } finally {
      await close();
    }
  });
  await t.step("pay-walled or missing everywhere: the abstract with every URL tried", async () => {
    const { call, close } = await papersClient();
    try {
      const error = abstractOnly(await call("fetch_content", { source: "openalex", id: "W2741809807" }));
      assert.match(error.out.abstract ?? "", /^Despite growing interest in Open Access/);
      assert.match(
        error.tried,
        /publisher PDF \(http:\/\/mock\.test\/publisher\/peerj\.com\/articles\/4375\.pdf\): not found \(HTTP 404\)/,
      );
      assert.match(
        error.tried,
        /publisher page \(http:\/\/mock\.test\/publisher\/doi\.org\/10\.7717\/peerj\.4375\): not found/,
      );
    } finally {
      await close();
    }
  });
  await t.step("a closed work says there is no open-access copy", async () => {
    const { call, close } = await papersClient();
    try {
      const error = abstractOnly(await call("fetch_content", { source: "openalex", id: "W6945048743" }));
      assert.match(error.tried, /OpenAlex lists no open-access copy/);
      assert.match(error.message, /https:\/\/doi\.org\/10\.2210\/pdb4hhb\/pdb/);
    } finally {
      await close();
    }
  });
  await t.step("a DOI with <, > and ; is percent-encoded where it becomes a link", async () => {
    const { call, close } = await papersClient({
      routes: [
        (req) =>
          req.url.pathname === "/openalex/works/W6945048743"
            ? new Response(fixture("openalex/built__work_closed_sici_doi.json"))
            : undefined,
      ],
    });
    try {
      const error = abstractOnly(await call("fetch_content", { source: "openalex", id: "W6945048743" }));
      assert.ok(
        error.message.includes(
          "https://doi.org/10.1002/(sici)1097-0258(19980415)17:7%3C857::aid-sim777%3E3.0.co;2-e.",
        ),
        error.message,
      );
    } finally {
      await close();
    }
  });
});

Deno.test("fetch_content refuses publisher links to internal addresses (SSRF)", async (t) => {
  await t.step("a publisher host that resolves to loopback is refused without the test seam", async () => {
    const { call, close, fetch } = await papersClient({
      seams: { resolveDns: (_h, type) => Promise.resolve(type === "A" ? ["127.0.0.1"] : []) },
    });
    try {
      const error = abstractOnly(await call("fetch_content", { source: "openalex", id: "W2741809807" }));
      assert.match(error.tried, /refused: mock\.test \(127\.0\.0\.1\) is a loopback address/);
      assert.ok(!fetch.requests.some((r) => r.url.pathname.startsWith("/publisher/")), "nothing was requested");
    } finally {
      await close();
    }
  });
  await t.step("a redirect to the cloud metadata address is refused", async () => {
    const work = JSON.parse(fixture("openalex/openalexpython__W2741809807_2025.json"));
    work.best_oa_location.pdf_url = "http://mock.test/publisher/redirect-private";
    work.locations = [];
    work.primary_location.is_oa = false;
    work.best_oa_location.landing_page_url = null;
    const { call, close, fetch } = await papersClient({
      routes: [
        (req) => req.url.pathname === "/openalex/works/W2741809807" ? new Response(JSON.stringify(work)) : undefined,
      ],
    });
    try {
      const error = abstractOnly(await call("fetch_content", { source: "openalex", id: "W2741809807" }));
      assert.match(error.tried, /refused: 169\.254\.169\.254 is a link-local address/);
      assert.ok(!fetch.requests.some((r) => r.url.host === "169.254.169.254"));
    } finally {
      await close();
    }
  });
});

Deno.test("fetch_content text of a real arXiv PDF through the shared extractor", async () => {
  const { call, close } = await papersClient();
  try {
    const result: CallResult = await call("fetch_content", { source: "arxiv", id: "1111.2011v2", max_chars: 5000 });
    const out = structured<Content>(result);
    assert.equal(out.content_format, "pdf");
    assert.match(out.text, /Quantum Criticality/i);
    assert.ok(out.total_chars > 20_000);
  } finally {
    await close();
  }
});

Deno.test("a 200,000-character pdf_url is quoted back cut to 200 characters with its length, never whole", async () => {
  const work = JSON.parse(fixture("openalex/openalexpython__W2741809807_2025.json"));
  const long = `http://mock.test/publisher/${"a".repeat(200_000)}.pdf`;
  work.best_oa_location.pdf_url = long;
  work.locations = [];
  work.primary_location.is_oa = false;
  work.best_oa_location.landing_page_url = null;
  const { call, close } = await papersClient({
    routes: [
      (req) => req.url.pathname === "/openalex/works/W2741809807" ? new Response(JSON.stringify(work)) : undefined,
    ],
  });
  try {
    const { message, tried } = abstractOnly(await call("fetch_content", { source: "openalex", id: "W2741809807" }));
    for (const quoted of [message, tried]) assert.ok(!quoted.includes("a".repeat(201)), "the URL is quoted whole");
    assert.match(tried, new RegExp(`a{150,200}…\\(${long.length} characters\\)`));
  } finally {
    await close();
  }
});
