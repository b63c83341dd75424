import { ALL_TOOLS } from "../src/catalog.ts";
for (const t of ALL_TOOLS) console.log(t.name, JSON.stringify(t.examples));
