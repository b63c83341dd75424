/** The tool calls a prompt's text writes (`tool {json}`), and the values a model fills into their placeholders. */
import { ALL_TOOLS } from "../../src/catalog.ts";

/** What a model writes for each placeholder, taken from the mock's answers to the earlier steps. */
const FILLS: [RegExp, string][] = [
  [/<CID>/g, "2244"],
  [/"<NCBIGene CURIE[^>]*>"|"<same CURIE>"/g, '"NCBIGene:7157"'],
  [/"<up to 5 PMIDs[^>]*>"/g, '"27797938","30108519"'],
];

/** Every `tool {json}` a prompt text writes, for tools of the catalogue. */
export function toolCalls(text: string): { tool: string; json: string }[] {
  const names = new Set(ALL_TOOLS.map((t) => t.name));
  const calls: { tool: string; json: string }[] = [];
  for (const match of text.matchAll(/\b([A-Za-z_]+) \{/g)) {
    if (!names.has(match[1])) continue;
    const start = match.index! + match[0].length - 1;
    let depth = 0;
    let inString = false;
    for (let i = start; i < text.length; i++) {
      const c = text[i];
      if (inString) {
        if (c === "\\") i++;
        else if (c === '"') inString = false;
      } else if (c === '"') inString = true;
      else if (c === "{") depth++;
      else if (c === "}" && --depth === 0) {
        calls.push({ tool: match[1], json: text.slice(start, i + 1) });
        break;
      }
    }
  }
  return calls;
}

export function fill(json: string): string {
  return FILLS.reduce((text, [pattern, value]) => text.replace(pattern, value), json);
}
