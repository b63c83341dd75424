import { ALL_TOOLS } from "../src/catalog.ts";
import { listedInputSchema, outputJsonSchema } from "../src/core/json_schema.ts";
let total = 0;
for (const def of ALL_TOOLS) {
  const n = JSON.stringify({ name: def.name, title: def.title, description: def.description, inputSchema: listedInputSchema(def), outputSchema: outputJsonSchema(def), annotations: def.annotations }).length;
  total += n;
  console.log(def.name, n);
}
console.log("total", total, "avg", total / ALL_TOOLS.length);
