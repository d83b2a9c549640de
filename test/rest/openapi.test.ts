// The OpenAPI 3.1 description: valid against the official schema, and it describes every route of
// the table with its parameters, security and error responses.
import { statusOf } from '../../rest/openapi/error-responses.ts';
import { Validator } from '@seriousme/openapi-schema-validator';
import type { OperationObject, ParameterObject } from 'openapi3-ts/oas31';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../rest/openapi/document.ts';
import { catalogRoutes } from '../../rest/routes/index.ts';

const document = buildOpenApiDocument();
const operation = (method: string, path: string) =>
  (document.paths?.[path] as Record<string, OperationObject> | undefined)?.[method];

describe('OpenAPI description', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(JSON.parse(JSON.stringify(document)));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('describes every catalog route with its path and query parameters', () => {
    for (const route of catalogRoutes) {
      const op = operation(route.method.toLowerCase(), route.path);
      expect(op, `${route.path} is described`).toBeDefined();
      const names = ((op?.parameters ?? []) as ParameterObject[]).map((p) => `${p.in}:${p.name}`);
      const pathNames = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => `path:${m[1]}`);
      // an exportable list (or answer) takes `format` too (rest/export/export-format.ts)
      const queryNames = [
        ...Object.keys(route.query.shape),
        ...(route.exportable || route.answerExport ? ['format'] : []),
      ].map((name) => `query:${name}`);
      expect(names.sort()).toEqual([...pathNames, ...queryNames].sort());
    }
  });

  it('documents limit 1..100 (history 1..180) default 20 and offset >= 0 default 0 on every paged route', () => {
    for (const route of catalogRoutes.filter((r) => 'limit' in r.query.shape)) {
      const params = (operation('get', route.path)?.parameters ?? []) as ParameterObject[];
      const maximum = route.path === '/v1/stores/{domain}/history' ? 180 : 100;
      expect(params.find((p) => p.name === 'limit')?.schema).toMatchObject({
        type: 'integer',
        minimum: 1,
        maximum,
        default: 20,
      });
      expect(params.find((p) => p.name === 'offset')?.schema).toMatchObject({
        type: 'integer',
        minimum: 0,
        default: 0,
      });
    }
  });

  it('requires a key on data routes and none on discovery routes', () => {
    expect(document.components?.securitySchemes).toMatchObject({
      // a self-hoster has no web app: the scheme says how to mint a key
      bearerAuth: {
        type: 'http',
        scheme: 'bearer',
        description: expect.stringContaining(
          'A self-hosted server mints keys with `npm run keys -- create',
        ),
      },
      apiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-Api-Key' },
    });
    expect(document.security).toEqual([{ bearerAuth: [] }, { apiKeyHeader: [] }]);
    for (const path of [
      '/',
      '/v1/llms.txt',
      '/v1/docs.md',
      '/v1/openapi.json',
      '/v1/examples',
      '/v1/health',
    ]) {
      expect(operation('get', path)?.security, path).toEqual([]);
    }
    for (const route of catalogRoutes)
      expect(operation(route.method.toLowerCase(), route.path)?.security).toBeUndefined();
  });

  it('documents the error envelope per status, 404 only where a resource is looked up, and the rate-limit headers', () => {
    for (const route of catalogRoutes) {
      const responses = operation(route.method.toLowerCase(), route.path)?.responses ?? {};
      const expected = [
        ...Object.keys(route.successStatuses ?? { 200: '' }),
        '400',
        '401',
        '403',
        '429',
        '500',
        '503',
        '504',
        ...(route.canBeNotFound ? ['404'] : []),
        ...(route.extraErrors ?? []).map((kind) => String(statusOf(kind))),
      ].sort();
      expected.splice(0, expected.length, ...new Set(expected));
      expect(Object.keys(responses).sort(), route.path).toEqual(expected);
      const success = Object.keys(route.successStatuses ?? { 200: '' })[0]!;
      const exportHeaders =
        route.exportable || route.answerExport
          ? ['X-Export-Total', 'X-Export-Rows', 'X-Export-Complete']
          : [];
      expect(Object.keys(responses[success].headers ?? {})).toEqual([
        'X-RateLimit-Limit',
        'X-RateLimit-Remaining',
        'X-RateLimit-Reset',
        'RateLimit-Policy',
        'RateLimit',
        ...exportHeaders,
      ]);
      expect(Object.keys(responses['429'].headers ?? {})).toContain('Retry-After');
      expect(responses['400'].content['application/json'].schema).toEqual({
        $ref: '#/components/schemas/Error_bad_request',
      });
    }
    expect(document.components?.schemas?.Error_not_found).toMatchObject({
      properties: { error: { properties: { code: { type: 'string', enum: ['not_found'] } } } },
    });
  });

  it('has one tag per feature and states the decisions where the contract is open', () => {
    expect(document.tags?.map((tag) => tag.name)).toEqual([
      'Discovery',
      'Stores',
      'Products',
      'Changes',
      'Analytics',
      'Apps',
      'Scrapes',
      'Signals',
      'Alerts',
      'Usage',
    ]);
    expect(document.info.description).toContain('Decisions where the contract is open');
    expect(operation('get', '/v1/products')?.description).toContain(
      'at least one filter is required',
    );
  });
});
