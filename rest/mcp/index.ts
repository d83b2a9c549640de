// MCP at /mcp over Streamable HTTP (the official TypeScript SDK's transport), stateless: each HTTP
// request gets its own MCP server bound to that request, so a tool call runs with the caller the
// identify stage found from this request's key header (Authorization: Bearer or X-Api-Key),
// through runRoute like the REST route it stands for (its messages other than tool calls are
// admitted by the HTTP hook, rateUnitsOf). Answers are JSON (no server-initiated
// stream: every tool answers at once). Desktop agents that speak MCP over stdio use `npm run mcp`,
// which relays to this endpoint.
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ErrorEnvelope } from '../../src/http/error-envelope.ts';
import type { Services } from '../../src/platform/services.ts';
import type { RestRoute } from '../route.ts';
import type { RunRoute } from '../run-route.ts';
import { createMcpServer } from './mcp-server.ts';
import { MCP_PATH } from './mcp-path.ts';
import { invalidToolCall } from './tool-call-params.ts';

export { MCP_PATH } from './mcp-path.ts';

/** RFC 9728: the protected-resource metadata of a resource at /mcp lives at this path */
export const MCP_RESOURCE_METADATA_PATH = `/.well-known/oauth-protected-resource${MCP_PATH}`;

/** The service's own address as callers reach it: PUBLIC_BASE_URL, else the request's. */
const baseUrlOf = (config: Pick<Services['config'], 'PUBLIC_BASE_URL'>, request: FastifyRequest) =>
  (config.PUBLIC_BASE_URL ?? `${request.protocol}://${request.host}`).replace(/\/+$/, '');

/** Where an MCP client finds how to authenticate to /mcp (named in the WWW-Authenticate of its 401s). */
export const mcpResourceMetadataUrl = (
  config: Pick<Services['config'], 'PUBLIC_BASE_URL'>,
  request: FastifyRequest,
) => `${baseUrlOf(config, request)}${MCP_RESOURCE_METADATA_PATH}`;

/** The request as the SDK's web-standard transport reads it; the body is handed over already parsed. */
function webRequestOf(request: FastifyRequest): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined || name === 'content-length') continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  return new Request(new URL(request.url, `http://${request.host}`), {
    method: request.method,
    headers,
  });
}

/** Messages of a request that no route charges: all but tools/call (charged as the route it runs); each counts against the per-minute rate. */
function unchargedMessages(body: unknown): number {
  const messages = Array.isArray(body) ? body : [body];
  let count = 0;
  for (const message of messages)
    if ((message as { method?: unknown } | null)?.method !== 'tools/call') count++;
  return count;
}

export async function registerMcp(
  app: FastifyInstance,
  services: Services,
  runRoute: RunRoute,
  routes: readonly RestRoute[],
): Promise<void> {
  const logger = services.logger.child({ component: 'mcp' });
  // stateless: no server-initiated stream to GET and no session to DELETE; the transport spec's
  // answer to those is 405 (the SDK's client then carries on with POSTs alone)
  // no authorization server: a key is minted out of band (`npm run keys`, the web app) and sent as a bearer token
  app.get(MCP_RESOURCE_METADATA_PATH, { config: { servesNoData: true } }, async (request) => {
    const base = baseUrlOf(services.config, request);
    return {
      resource: `${base}${MCP_PATH}`,
      resource_name: 'Store-Intelligence API (MCP)',
      bearer_methods_supported: ['header'],
      resource_documentation: `${base}/docs`,
    };
  });
  app.route({
    method: ['GET', 'DELETE'],
    url: MCP_PATH,
    handler: async (request, reply) => {
      const envelope: ErrorEnvelope = {
        error: {
          code: 'bad_request',
          message: `${request.method} ${MCP_PATH} is not served: this MCP endpoint is stateless, send each message with POST.`,
          details: { parameter: 'method', rule: 'POST only' },
        },
      };
      return reply.status(405).header('allow', 'POST').send(envelope);
    },
  });
  app.route({
    method: 'POST',
    url: MCP_PATH,
    config: { rateUnitsOf: unchargedMessages },
    handler: async (request, reply) => {
      const invalid = invalidToolCall(request.body);
      if (invalid)
        return reply.status(200).header('content-type', 'application/json').send(invalid);
      const server = createMcpServer(
        routes,
        async (route, params) =>
          (await runRoute(route, params, { principal: request.principal, req: request, reply }))
            .body,
        logger,
      );
      const transport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
      });
      await server.connect(transport);
      try {
        const response = await transport.handleRequest(webRequestOf(request), {
          parsedBody: request.body,
        });
        response.headers.forEach((value, name) => {
          reply.header(name, value);
        });
        return reply.status(response.status).send(Buffer.from(await response.arrayBuffer()));
      } finally {
        await server.close();
      }
    },
  });
}
