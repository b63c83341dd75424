import { TOOLSET_NAMES } from "../src/config.ts";
import { connectClient, testRuntime } from "../tests/helpers/runtime.ts";
const { client, close } = await connectClient(testRuntime({ env: { SCIENCE_MCP_TOOLSETS: TOOLSET_NAMES.join(",") } }));
const r = await client.listTools();
console.log(
  JSON.stringify(r).length,
  r.tools.length,
  r.tools.map((t) => `${t.name} ${JSON.stringify(t).length}`).join(", "),
);
await close();
