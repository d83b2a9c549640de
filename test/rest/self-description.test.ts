// The open discovery routes: root document, agent brief, Markdown reference, OpenAPI and recipes.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogRoutes } from '../../rest/routes/index.ts';
import { openRestApp, type RestApp } from './support/rest-app.ts';

const root = join(import.meta.dirname, '../..');

describe('discovery routes', () => {
  let rest: RestApp;
  beforeAll(async () => {
    rest = await openRestApp();
  });
  afterAll(async () => {
    await rest?.close();
  });

  it('GET / links to every discovery document and to GraphQL', async () => {
    const res = await rest.get('/');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: 'Store-Intelligence API',
      apiVersion: 'v1',
      links: {
        llmsTxt: '/v1/llms.txt',
        docs: '/v1/docs.md',
        reference: '/docs',
        openapi: '/v1/openapi.json',
        examples: '/v1/examples',
        health: '/v1/health',
        graphql: '/graphql',
        mcp: '/mcp',
      },
    });
    for (const link of Object.values(res.body.links as Record<string, string>).filter(
      (l) => l !== '/graphql' && l !== '/mcp',
    )) {
      const answer = await rest.app.inject({ method: 'GET', url: link });
      // /docs moves to /docs/, the page itself
      const page =
        answer.statusCode === 301
          ? await rest.app.inject({ method: 'GET', url: String(answer.headers.location) })
          : answer;
      expect(page.statusCode, link).toBe(200);
    }
  });

  it('GET / answers a browser (Accept preferring text/html) with an HTML page of links, any other client with the JSON document', async () => {
    const browser =
      'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';
    const page = await rest.app.inject({ method: 'GET', url: '/', headers: { accept: browser } });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers.vary).toContain('Accept');
    for (const href of ['/docs', '/graphql', '/dashboard/scrapes', '/v1/llms.txt'])
      expect(page.body).toContain(`href="${href}"`);
    expect(page.body).toContain('npm run keys -- create --account ACCOUNT --plan starter');

    for (const accept of [
      undefined,
      '*/*',
      'application/json',
      'application/json, text/html',
      'text/html;q=0.5, application/json',
    ]) {
      const res = await rest.app.inject({
        method: 'GET',
        url: '/',
        headers: accept === undefined ? {} : { accept },
      });
      expect([accept, res.headers['content-type']]).toEqual([
        accept,
        'application/json; charset=utf-8',
      ]);
      expect(res.json().links.reference).toBe('/docs');
    }
  });

  it('serves llms.txt as text/plain with the usage rules and every route, identical to the repository copy', async () => {
    const res = await rest.get('/v1/llms.txt');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    for (const phrase of [
      'Search first, then fetch',
      'modeled low/high band',
      'modeled estimates',
      'classifier',
      'diffs between observations',
      'Empty arrays and zeros mean no observation',
      'Money is USD',
      'Signals are scoped',
      'Stop when `page.hasMore` is false',
    ]) {
      expect(res.text).toContain(phrase);
    }
    for (const route of catalogRoutes) expect(res.text).toContain(`${route.method} ${route.path}`);
    expect(res.text).toBe(readFileSync(join(root, 'llms.txt'), 'utf8'));
  });

  it('serves docs.md as text/markdown with params, defaults, errors and statuses, identical to the repository copy', async () => {
    const res = await rest.get('/v1/docs.md');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/markdown; charset=utf-8');
    for (const route of catalogRoutes)
      expect(res.text).toContain(`#### ${route.method} ${route.path}`);
    expect(res.text).toContain('| `limit` | query | integer | no | 20 | 1 to 100 |');
    expect(res.text).toContain('| `not_found` | 404 |');
    expect(res.text).toContain('| `rate_limited` | 429 |');
    expect(res.text).toContain('X-RateLimit-Remaining');
    expect(res.text).toContain('Authorization: Bearer <API_KEY>');
    expect(res.text).toContain('Decisions where the contract is open');
    expect(res.text).toBe(readFileSync(join(root, 'docs.md'), 'utf8'));
  });

  it('serves the OpenAPI 3.1 description and the workflow recipes as JSON', async () => {
    const openapi = await rest.get('/v1/openapi.json');
    expect(openapi.status).toBe(200);
    expect(openapi.body.openapi).toBe('3.1.0');

    const examples = await rest.get('/v1/examples');
    expect(examples.status).toBe(200);
    expect(examples.body.workflows.map((w: { id: string }) => w.id)).toEqual([
      'search-then-fetch',
      'cohort-rollup-then-drill-down',
      'market-then-movers',
      'app-then-its-stores',
      'technology-then-stores',
      'lookup-a-list',
      'app-changes-then-stores',
      'scrape-then-poll',
      'watch-then-read-sales',
      'alert-then-matches',
    ]);
  });

  it('every GET step of the catalog recipes names a documented route', async () => {
    const examples = await rest.get('/v1/examples');
    const documented = Object.keys(openapiPaths(await rest.get('/v1/openapi.json')));
    const catalogSteps = examples.body.workflows
      .flatMap((w: { steps: Array<{ method: string; path: string }> }) => w.steps)
      .filter((s: { path: string }) =>
        /^\/v1\/(stores|products|changes|analytics|apps)/.test(s.path),
      );
    expect(catalogSteps.length).toBeGreaterThan(0);
    for (const step of catalogSteps) {
      const path = step.path.split('?')[0];
      const matches = documented.some((template) =>
        new RegExp(`^${template.replace(/\{\w+\}/g, '[^/]+')}$`).test(path),
      );
      expect(matches, step.path).toBe(true);
    }
  });
});

const openapiPaths = (res: { body: { paths: Record<string, unknown> } }) => res.body.paths;
