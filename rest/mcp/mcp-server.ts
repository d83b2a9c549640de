// The MCP server of one caller's connection: tools/list answers a tool per /v1 data route, and
// tools/call runs that route through runRoute, exactly as its REST request would run (the
// caller's key, its quotas and rate, the response cache, the contract's errors). A refused call
// is a tool error whose text is the contract's error envelope, {"error": {code, message, details}}.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import packageJson from '../../package.json' with { type: 'json' };
import { AUTH_RULE, PAGINATION_RULE, USAGE_RULES } from '../openapi/usage-rules.ts';
import { ApiError } from '../../src/platform/errors.ts';
import type { Logger } from '../../src/platform/logger.ts';
import type { ErrorEnvelope } from '../../src/http/error-envelope.ts';
import type { RestRoute } from '../route.ts';
import { mcpToolsOf, paramsOf } from './tools.ts';

export const MCP_INSTRUCTIONS = [
  'Facts about online stores on one e-commerce platform, their products and the apps they run. Each tool is one ' +
    'route of the REST API under /v1 and answers its JSON body.',
  'Rules:',
  ...USAGE_RULES.map((rule, index) => `${index + 1}. ${rule}`),
  `Paging: ${PAGINATION_RULE.replace(/`limit`/g, 'limit').replace(/`offset`/g, 'offset')}`,
  `Keys: ${AUTH_RULE} Over MCP the key is the one your client sends with each HTTP request to /mcp.`,
  'Errors come back as tool errors whose text is {"error": {"code", "message", "details"}}; code is one of ' +
    'not_found, bad_request, unauthorized, rate_limited, query_timeout, internal. On rate_limited wait ' +
    'details.retryAfter seconds.',
].join('\n');

/** Runs a route for this connection's caller; throws its ApiError. */
export type CallRoute = (route: RestRoute, params: Record<string, unknown>) => Promise<unknown>;

export function createMcpServer(
  routes: readonly RestRoute[],
  callRoute: CallRoute,
  logger: Logger,
): Server {
  const server = new Server(
    { name: 'store-intelligence', title: 'Store-Intelligence API', version: packageJson.version },
    { capabilities: { tools: { listChanged: false } }, instructions: MCP_INSTRUCTIONS },
  );
  const byName = routesByName(routes);
  const tools = mcpToolsOf(routes);

  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const route = byName.get(request.params.name);
    if (!route)
      return refused(
        new ApiError('not_found', `No tool ${request.params.name}; tools/list names them.`, {
          tool: request.params.name,
        }),
      );
    try {
      const body = await callRoute(route, paramsOf(route, request.params.arguments ?? {}));
      return {
        content: [{ type: 'text', text: JSON.stringify(body) }],
        structuredContent: body as Record<string, unknown>,
      };
    } catch (error) {
      if (error instanceof ApiError) return refused(error);
      // a fault of ours: logged here, and the caller gets the contract's fixed internal error
      logger.error({ err: error, tool: route.operationId }, 'MCP tool call failed unexpectedly');
      return refused(new ApiError('internal', 'Internal server error.'));
    }
  });
  return server;
}

const byNameOfTable = new WeakMap<readonly RestRoute[], Map<string, RestRoute>>();

function routesByName(routes: readonly RestRoute[]): Map<string, RestRoute> {
  let byName = byNameOfTable.get(routes);
  if (!byName)
    byNameOfTable.set(
      routes,
      (byName = new Map(routes.map((route) => [route.operationId, route]))),
    );
  return byName;
}

function refused(error: ApiError): CallToolResult {
  const envelope: ErrorEnvelope = {
    error: { code: error.code, message: error.message, details: error.details ?? null },
  };
  return {
    isError: true,
    content: [{ type: 'text', text: JSON.stringify(envelope) }],
    structuredContent: { ...envelope },
  };
}
