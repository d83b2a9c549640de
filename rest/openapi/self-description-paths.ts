// The self-description routes (the spec's open discovery routes) in the OpenAPI description: no security, no rate-limit headers.
import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { errorResponses } from './error-responses.ts';

/** GET /: what the service is and where its self-description documents live (self-description/root.ts). */
export const RootDocument = z
  .strictObject({
    name: z.string(),
    version: z.string(),
    apiVersion: z.literal('v1'),
    description: z.string(),
    links: z.strictObject({
      llmsTxt: z.string(),
      docs: z.string(),
      reference: z
        .string()
        .meta({ description: 'The HTML reference over the OpenAPI description.' }),
      openapi: z.string(),
      examples: z.string(),
      health: z.string(),
      graphql: z.string(),
      mcp: z.string().meta({
        description:
          'MCP over Streamable HTTP (POST): one tool per data route, the same key header.',
      }),
    }),
    auth: z.string(),
  })
  .meta({
    id: 'RootDocument',
    description: 'Root discovery document; links are paths on this host.',
  });

/** GET /v1/examples: the contract's workflows as HTTP steps (self-description/examples.ts). */
const Step = z
  .strictObject({
    method: z.enum(['GET', 'POST', 'PATCH', 'DELETE']),
    path: z.string().meta({ description: 'Path with query string, relative to the base URL.' }),
    body: z.record(z.string(), z.unknown()).optional(),
    purpose: z.string(),
    next: z.string().meta({ description: 'What to take from the answer, or when to repeat.' }),
  })
  .meta({ id: 'ExampleStep' });

const Workflow = z
  .strictObject({ id: z.string(), title: z.string(), steps: z.array(Step) })
  .meta({ id: 'ExampleWorkflow' });

export const ExamplesDocument = z
  .strictObject({ workflows: z.array(Workflow) })
  .meta({ id: 'ExamplesDocument', description: 'Workflow recipes.' });

export type ExamplesDocument = z.infer<typeof ExamplesDocument>;

const HealthReport = z
  .object({
    status: z.enum(['ok', 'degraded']),
    backends: z.record(
      z.string(),
      z.object({ ok: z.boolean(), backend: z.string(), latencyMs: z.number().optional() }),
    ),
    version: z.string(),
    uptimeSeconds: z.number(),
    openDevMode: z.boolean().meta({
      description:
        'True in open-dev mode: no API key was created yet (or OPEN_DEV_MODE=while-no-live-key and none is live); data routes then answer loopback clients without a key (never in production).',
    }),
  })
  .meta({ id: 'HealthReport', description: 'Liveness of the service and its backends.' });

const text = (mediaType: string, description: string) => ({
  description,
  content: { [mediaType]: { schema: z.string() } },
});

export function registerSelfDescriptionPaths(registry: OpenAPIRegistry): void {
  const open = (
    path: string,
    operationId: string,
    summary: string,
    ok: Record<string, unknown>,
    extra = {},
  ) =>
    registry.registerPath({
      method: 'get',
      path,
      operationId,
      tags: ['Discovery'],
      summary,
      security: [],
      responses: { 200: ok as never, ...extra, ...errorResponses(['internal']) },
    });

  open('/', 'getRoot', 'Root discovery: name, version and links to every discovery route', {
    description:
      'Links to the discovery documents and the GraphQL endpoint: JSON, or an HTML page with the same links (and the ' +
      "command that mints a key) when Accept prefers text/html, as a browser's does.",
    content: { 'application/json': { schema: RootDocument }, 'text/html': { schema: z.string() } },
  });
  open(
    '/v1/llms.txt',
    'getLlmsTxt',
    'Agent brief (plain text)',
    text('text/plain', 'Usage rules and a compact route list for agents.'),
  );
  open(
    '/v1/docs.md',
    'getDocsMarkdown',
    'Reference in Markdown',
    text('text/markdown', 'Every route with its parameters, responses and errors.'),
  );
  open('/v1/openapi.json', 'getOpenApi', 'This OpenAPI 3.1 description', {
    description: 'The OpenAPI 3.1 document.',
    content: { 'application/json': { schema: z.record(z.string(), z.unknown()) } },
  });
  open('/v1/examples', 'getExamples', 'Machine-readable workflow recipes', {
    description: 'Workflows as lists of concrete HTTP steps.',
    content: { 'application/json': { schema: ExamplesDocument } },
  });
  open(
    '/v1/health',
    'getHealth',
    'Liveness',
    {
      description: 'The service can answer.',
      content: { 'application/json': { schema: HealthReport } },
    },
    {
      503: {
        description: 'The structured store is unreachable.',
        content: { 'application/json': { schema: HealthReport } },
      },
    },
  );
}
