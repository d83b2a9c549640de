// The MCP tools, generated from the route table: one per /v1 data route, named by its operationId,
// described by its summary and description, its input schema the JSON Schema of the route's own
// zod schemas (path, query and body parameters side by side, as a caller knows them). A tool's
// arguments are split back into path, query and body and parsed by those same schemas, so a bad
// argument is the same bad_request REST answers.
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { getOperationAST } from 'graphql';
import { z } from 'zod';
import { parseBody, parseParams } from '../parse-params.ts';
import type { RestRoute } from '../route.ts';

type JsonSchemaObject = { properties?: Record<string, unknown>; required?: string[] };

const inputSchemaOf = (schema: z.ZodObject) =>
  z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchemaObject;

function toolInputSchema(route: RestRoute): Tool['inputSchema'] {
  const parts = [route.pathParams, route.query, ...(route.body ? [route.body] : [])].map(
    inputSchemaOf,
  );
  return {
    type: 'object',
    properties: Object.assign({}, ...parts.map((part) => part.properties ?? {})),
    required: parts.flatMap((part) => part.required ?? []),
    additionalProperties: false,
  };
}

function toolDescription(route: RestRoute): string {
  return [
    `${route.summary}. ${route.description}`,
    `REST: ${route.method} ${route.path}, e.g. ${route.example}`,
  ].join('\n\n');
}

export function toolOf(route: RestRoute): Tool {
  // a POST whose operation is a query asks a question (the bulk store lookup): it changes nothing
  const reads = route.method === 'GET' || getOperationAST(route.document)?.operation === 'query';
  return {
    name: route.operationId,
    title: route.summary,
    description: toolDescription(route),
    inputSchema: toolInputSchema(route),
    annotations: {
      title: route.summary,
      readOnlyHint: reads,
      destructiveHint: route.method === 'DELETE',
      idempotentHint: reads || route.method !== 'POST',
      // the catalog and the watches are this service's own; nothing reaches another system for a call
      openWorldHint: false,
    },
  };
}

/** The tools of a route table, built once per table: every MCP request lists or calls them. */
const toolsByTable = new WeakMap<readonly RestRoute[], Tool[]>();

export function mcpToolsOf(routes: readonly RestRoute[]): Tool[] {
  let tools = toolsByTable.get(routes);
  if (!tools) toolsByTable.set(routes, (tools = routes.map(toolOf)));
  return tools;
}

/** A tool call's arguments as the route's parameters; throws the bad_request REST would answer. */
export function paramsOf(route: RestRoute, args: Record<string, unknown>): Record<string, unknown> {
  const path: Record<string, unknown> = {};
  const query: Record<string, unknown> = {};
  const body: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(args)) {
    if (name in route.pathParams.shape) path[name] = value;
    else if (route.body && name in route.body.shape) body[name] = value;
    else query[name] = value;
  }
  return { ...parseParams(route, path, query), ...parseBody(route, body) };
}
