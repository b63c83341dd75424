/** `serve`: runs the MCP server on the transport chosen by `--transport` or MCP_TRANSPORT_TYPE. */
import { loadConfig, readEnv } from "../config.ts";
import { createRuntime } from "../runtime.ts";
import { startHttpServer } from "../transports/http_server.ts";
import { runStdio } from "../transports/stdio.ts";
import { UsageError } from "./args.ts";

export async function runServe(args: readonly string[]): Promise<number> {
  const options = parseServeArgs(args);
  const config = loadConfig(readEnv());
  const transport = options.transport ?? config.transport;
  const runtime = createRuntime({ config });
  if (transport === "stdio") {
    await runStdio(runtime);
    return 0;
  }
  try {
    const server = startHttpServer(runtime, { port: options.port, handleSignals: true });
    await server.finished;
    return 0;
  } catch (error) {
    await runtime.close();
    throw error;
  }
}

function parseServeArgs(args: readonly string[]): { transport?: "stdio" | "http"; port?: number } {
  const out: { transport?: "stdio" | "http"; port?: number } = {};
  for (let i = 0; i < args.length; i++) {
    const token = args[i];
    const eq = token.indexOf("=");
    const flag = eq === -1 ? token : token.slice(0, eq);
    const value = eq === -1 ? args[++i] : token.slice(eq + 1);
    if (flag === "--transport" && (value === "stdio" || value === "http")) out.transport = value;
    else if (flag === "--port" && /^\d{1,5}$/.test(value ?? "") && Number(value) <= 65535) out.port = Number(value);
    else throw new UsageError(`Unexpected serve option '${token}'. Use --transport stdio|http and --port N.`);
  }
  return out;
}
