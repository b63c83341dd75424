/**
 * The MCP Registry entry (`server.json`), generated from the catalogue and the settings table so it cannot
 * drift from the server. `deno task docs` writes it; tests/cli/server_json_test.ts validates it against the
 * registry's published schema (fixtures/registry/).
 *
 * What it claims is only what exists: a remote for the operator's own Streamable HTTP deployment (the host
 * is a variable), and no package entry, because the registry indexes npm, PyPI, OCI, NuGet and MCPB
 * packages and this server is none of those. The settings, with secrets marked, and the tools go in the
 * publisher-provided `_meta`, which the schema leaves open for exactly such data.
 */
import { ALL_TOOLS } from "../src/catalog.ts";
import { ENV_VARS, VERSION } from "../src/config.ts";

export const SERVER_JSON = new URL("../server.json", import.meta.url);
export const REGISTRY_SCHEMA = "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json";
/** The registry name: reverse-DNS namespace (the JSR scope's GitHub organisation) / server. */
export const REGISTRY_NAME = "io.github.science-mcp/science-mcp";

export function renderServerJson(): string {
  const entry = {
    $schema: REGISTRY_SCHEMA,
    name: REGISTRY_NAME,
    title: "science-mcp",
    description: "PubMed, NCBI Gene, PubChem, arXiv, OpenAlex, PMC full text and local PDFs for LLM agents",
    version: VERSION,
    remotes: [{
      type: "streamable-http",
      url: "https://{host}/mcp",
      variables: {
        host: {
          description: "Host (and port) of your deployment: deno task serve, deno serve serve.ts or Deno Deploy",
          isRequired: true,
          placeholder: "mcp.example.org",
        },
      },
      headers: [{
        name: "Authorization",
        description: "Bearer token: an HS256 JWT from `deno task token` (MCP_AUTH_MODE=jwt) or an access " +
          "token of your authorization server (MCP_AUTH_MODE=oauth)",
        isRequired: true,
        isSecret: true,
        placeholder: "Bearer eyJ...",
      }],
    }],
    _meta: {
      "io.modelcontextprotocol.registry/publisher-provided": {
        tool: "scripts/gen_docs.ts",
        run: "deno run -P=stdio main.ts serve",
        environmentVariables: ENV_VARS.map((v) => ({
          name: v.name,
          description: v.description,
          ...(v.default === undefined ? {} : { default: v.default }),
          ...(v.secret ? { isSecret: true } : {}),
        })),
        tools: ALL_TOOLS.map((t) => t.name),
      },
    },
  };
  return JSON.stringify(entry, null, 2) + "\n";
}
