/**
 * fetch_content over a real eLife JATS article (served as PMC's EFetch answer): the decision letter and
 * the author response are outline entries, a section read returns one, and paging to the end at two
 * budgets loses and repeats nothing, sub-articles and file lines included.
 */
import assert from "node:assert/strict";
import { parsePmcArticles } from "../../../src/sources/pmc/parse_jats.ts";
import { jatsDoc } from "../../../src/tools/papers/content/pmc_content.ts";
import { fixture } from "../../helpers/runtime.ts";
import { papersClient, structured } from "./mock.ts";

const ELIFE = fixture("elife/elifetools__elife04490.xml");
/** A fictitious PMCID: the route answers any EFetch db=pmc with the eLife article. */
const ID = "PMC9000002";

interface Page {
  text: string;
  offset: number;
  next_offset?: number;
  total_chars: number;
  outline?: { n: number; level: number; heading: string }[];
  section?: { heading: string };
}

async function client(outputChars = "200000") {
  return await papersClient({
    env: { SCIENCE_MCP_MAX_OUTPUT_CHARS: outputChars },
    routes: [
      (req) =>
        req.url.pathname === "/ncbi/efetch.fcgi" && req.url.searchParams.get("db") === "pmc"
          ? new Response(ELIFE, { headers: { "content-type": "text/xml" } })
          : undefined,
    ],
  });
}

Deno.test("fetch_content lists sub-articles in the outline and reads one as a section", async () => {
  const { call, close } = await client();
  try {
    const first = structured<Page>(await call("fetch_content", { source: "pubmed", id: ID, max_chars: 5000 }));
    const headings = first.outline!.map((e) => e.heading);
    assert.deepEqual(headings.slice(-3), ["References", "Decision letter", "Author response"]);
    const response = structured<Page>(
      await call("fetch_content", { source: "pubmed", id: ID, section: "Author response", max_chars: 50_000 }),
    );
    assert.equal(response.section?.heading, "Author response");
    assert.match(response.text, /^## Author response\n\n1\) You report that the role of lox/);
    assert.equal(response.next_offset, undefined, "the whole response on one page");
    assert.ok(response.text.endsWith("does not change our conclusions at all."));
  } finally {
    await close();
  }
});

Deno.test("fetch_content pages through an eLife article to its last sub-article, following `next`, at three budgets", async () => {
  const expected = jatsDoc({ ...parsePmcArticles(ELIFE, "u")[0], pmcid: ID }, "u").text;
  assert.match(expected, /\n## Decision letter\n[\s\S]*\n## Author response\n/);
  // max_chars 20,000 and 47,000 under a large output budget; max_chars 60,000 under a 12,000-character
  // output budget, where the budget cut decides where each page ends.
  for (const [budget, outputChars] of [[20_000, "200000"], [47_000, "200000"], [60_000, "12000"]] as const) {
    const { call, close } = await client(outputChars);
    try {
      let text = "";
      let args: Record<string, unknown> | undefined = { source: "pubmed", id: ID, max_chars: budget };
      let pages = 0;
      while (args) {
        const page: Page & { next?: { tool: string; arguments: Record<string, unknown> } } = structured(
          await call("fetch_content", args),
        );
        text += page.text;
        pages++;
        assert.equal(page.next?.tool ?? "fetch_content", "fetch_content");
        args = page.next?.arguments;
      }
      assert.equal(text, expected, `budget ${budget}/${outputChars}: the pages concatenate to the whole text`);
      assert.ok(pages > 1, `budget ${budget}/${outputChars}: ${pages} pages`);
      assert.equal(fileCount(text), 9, "every source-data line");
    } finally {
      await close();
    }
  }
});

function fileCount(text: string): number {
  return text.split("\n").filter((l) => /^- Figure \d+—source data \d\. .*\(file: /.test(l)).length;
}
