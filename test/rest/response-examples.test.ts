// The /docs console's answer examples are real: rest/openapi/response-examples.json holds, per GET
// route of the catalog (and POST route that only reads), the answer to its documented example request on the catalog a first
// `npm start` seeds. This test sends every such request to a seeded server (open-dev mode), checks
// each answer and each stored example against the route's response schema, and that every catalog
// GET route (the per-account Signals and scrapes aside) has one. UPDATE_RESPONSE_EXAMPLES=1 rewrites the
// file from the answers.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../../app/server.ts';
import { getOperationAST } from 'graphql';
import { buildOpenApiDocument } from '../../rest/openapi/document.ts';
import { exampleBody } from '../../rest/openapi/request-examples.ts';
import { catalogRoutes } from '../../rest/routes/index.ts';
import { createSeededServices } from '../support/seeded-server.ts';
import type { CatalogTestServices } from '../support/test-services.ts';

const FILE = join(import.meta.dirname, '../../rest/openapi/response-examples.json');
/** per-account routes: their examples need a scrape or a watch first (docs.md's recipes) */
const perAccount = (path: string) =>
  path.startsWith('/v1/signals') || path.startsWith('/v1/scrapes');
/** a POST route whose operation is a query only reads (POST /v1/stores/lookup): its example answers too */
const reads = (route: (typeof catalogRoutes)[number]) =>
  route.method === 'GET' || getOperationAST(route.document)?.operation === 'query';
const documented = catalogRoutes.filter((route) => reads(route) && !perAccount(route.path));

describe('answer examples of the /docs console', () => {
  let test: CatalogTestServices;
  let app: FastifyInstance;
  const answers: Record<string, unknown> = {};

  beforeAll(async () => {
    test = await createSeededServices(40);
    app = await buildServer(test.services);
    // the alert routes' examples read the alert POST /v1/alerts's own example creates (alert 1)
    const create = catalogRoutes.find((route) => route.operationId === 'createAlert')!;
    const [url, body] = create.example.split(/ (.*)/s);
    expect((await app.inject({ method: 'POST', url, payload: JSON.parse(body!) })).statusCode).toBe(
      201,
    );
    for (const route of documented) {
      const body = exampleBody(route);
      const res = await app.inject({
        method: route.method,
        url: route.example.split(' ')[0]!,
        headers: { accept: 'application/json' },
        ...(body === undefined ? {} : { payload: body as object }),
      });
      answers[route.operationId] = { status: res.statusCode, body: res.json() };
    }
    if (process.env.UPDATE_RESPONSE_EXAMPLES === '1') {
      const bodies = Object.fromEntries(
        Object.entries(answers).map(([id, answer]) => [id, (answer as { body: unknown }).body]),
      );
      writeFileSync(FILE, `${JSON.stringify(bodies, null, 2)}\n`);
    }
  }, 300_000);
  afterAll(async () => {
    await app?.close();
    await test?.close();
  });

  it('every documented example request answers 200 with a body its schema accepts', () => {
    for (const route of documented) {
      const { status, body } = answers[route.operationId] as { status: number; body: unknown };
      expect([route.example, status]).toEqual([route.example, 200]);
      const parsed = route.response.safeParse(body);
      expect(parsed.success ? [] : parsed.error.issues, route.example).toEqual([]);
    }
  });

  it('every catalog GET route has a stored answer example its schema accepts, served in the OpenAPI description', () => {
    const stored = JSON.parse(readFileSync(FILE, 'utf8')) as Record<string, unknown>;
    const document = buildOpenApiDocument();
    for (const route of documented) {
      expect(Object.keys(stored), route.operationId).toContain(route.operationId);
      const parsed = route.response.safeParse(stored[route.operationId]);
      expect(parsed.success ? [] : parsed.error.issues, route.operationId).toEqual([]);
      const served = (
        document.paths![route.path] as Record<
          string,
          { responses: Record<string, { content: Record<string, { example?: unknown }> }> }
        >
      )[route.method.toLowerCase()];
      expect(served!.responses['200']!.content['application/json']!.example).toEqual(
        stored[route.operationId],
      );
    }
  });
});
