// `npm run -s mcp`: MCP over stdio for desktop agents, relayed to a running service's /mcp (Streamable
// HTTP) with the key of STORE_INTELLIGENCE_API_KEY in the X-Api-Key header. Every message passes
// through unchanged (a line that is not one is answered with JSON-RPC's parse error), so the tools, their answers and their errors are the service's own, charged
// to that key. (-s keeps npm's banner off stdout, which carries the protocol.)
//   STORE_INTELLIGENCE_URL      the service, default http://localhost:8080
//   STORE_INTELLIGENCE_API_KEY  the key; unset = no key (a server in open-dev mode answers)
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { isJSONRPCRequest, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { MCP_PATH } from './mcp-path.ts';

const base = process.env.STORE_INTELLIGENCE_URL || 'http://localhost:8080';
const key = process.env.STORE_INTELLIGENCE_API_KEY;

const upstream = new StreamableHTTPClientTransport(new URL(MCP_PATH, base), {
  requestInit: { headers: key ? { 'X-Api-Key': key } : {} },
});
const local = new StdioServerTransport();

/** A request the service could not be asked (unreachable, or it refused the HTTP request) still gets its answer. */
function failed(message: JSONRPCMessage, error: unknown): void {
  process.stderr.write(`store-intelligence MCP relay: ${(error as Error).message}\n`);
  if (!isJSONRPCRequest(message)) return;
  void local.send({
    jsonrpc: '2.0',
    id: message.id,
    error: {
      code: -32603,
      message: `The service at ${base} did not answer: ${(error as Error).message}`,
    },
  });
}

// a line that is not JSON, or not a JSON-RPC message, gets the protocol's own error (the id is unknown: null)
local.onerror = (error) => {
  const answer =
    error instanceof SyntaxError
      ? { code: -32700, message: 'Parse error: the line is not JSON' }
      : error.name === 'ZodError'
        ? { code: -32600, message: 'Invalid Request: the line is not a JSON-RPC 2.0 message' }
        : undefined;
  if (!answer) return void process.stderr.write(`store-intelligence MCP relay: ${error.message}\n`);
  process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', id: null, error: answer })}\n`);
};
local.onmessage = (message) => {
  upstream.send(message).catch((error: unknown) => failed(message, error));
};
upstream.onmessage = (message) => {
  void local.send(message);
};
upstream.onerror = (error) =>
  process.stderr.write(`store-intelligence MCP relay: ${error.message}\n`);
local.onclose = () => {
  void upstream.close();
};

await upstream.start();
await local.start();
