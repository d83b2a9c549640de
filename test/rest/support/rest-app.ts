// The real HTTP server (platform shell with the REST routes mounted) on a fresh test database, and a `get` that
// checks every JSON answer against the response schema the served OpenAPI description gives for
// that route and status, so contract tests cannot drift from the documentation.
import type { FastifyInstance } from 'fastify';
import type { OpenAPIObject } from 'openapi3-ts/oas31';
import { expect } from 'vitest';
import { buildServer } from '../../../app/server.ts';
import type { Services } from '../../../src/platform/services.ts';
import { loadCatalogFixture } from '../../support/catalog-fixture.ts';
import { createTestServices } from '../../support/test-services.ts';
import { responseValidator, templateOf } from './openapi-validation.ts';

export interface RestResponse {
  status: number;
  headers: Record<string, unknown>;
  body: any;
  text: string;
}

export interface RestApp {
  app: FastifyInstance;
  services: Services;
  get(url: string, headers?: Record<string, string>): Promise<RestResponse>;
  close(): Promise<void>;
}

/** With { fixture: true } the database holds the known catalog of test/support/catalog-fixture.ts. */
export async function openRestApp(
  options: { fixture?: boolean; queryTimeoutMs?: number } = {},
): Promise<RestApp> {
  const test = await createTestServices({ queryTimeoutMs: options.queryTimeoutMs });
  if (options.fixture) await loadCatalogFixture(test.services.db.pool, test.services.legacy);
  // the platform shell mounts the REST routes (registerRest) itself
  const app = await buildServer(test.services);
  const document = (
    await app.inject({ method: 'GET', url: '/v1/openapi.json' })
  ).json() as OpenAPIObject;
  const validate = responseValidator(document);
  const templates = Object.keys(document.paths ?? {});

  return {
    app,
    services: test.services,
    async get(url, headers = {}) {
      const res = await app.inject({ method: 'GET', url, headers });
      const isJson = String(res.headers['content-type'] ?? '').startsWith('application/json');
      const body = isJson ? res.json() : undefined;
      const template = templateOf(templates, url);
      if (isJson && template) {
        expect(
          validate('get', template, res.statusCode, body),
          `${url} ${res.statusCode} matches the OpenAPI description`,
        ).toEqual([]);
      }
      return { status: res.statusCode, headers: res.headers, body, text: res.body };
    },
    async close() {
      await app.close();
      await test.close();
    },
  };
}
