/** The server's name and version: announced in MCP initialize, sent in the User-Agent, shown by the CLI. */
export const VERSION = "0.1.0";
/** The server name announced in MCP initialize and used as the logger name. */
export const SERVER_NAME = "science-mcp";
