/** Where the service answers MCP over Streamable HTTP. */
export const MCP_PATH = '/mcp';
