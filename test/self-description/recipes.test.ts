// Every catalog recipe the service publishes, followed literally on the seeded catalog (seed 1,
// as `npm start` seeds it; store domains derive from the store id, so what 2,000 stores hold the
// default 10,000 hold too): the workflows of /v1/examples step by step, taking {domain} and
// {slug} from the previous answer as each step's `next` says, and the example request of every
// catalog route in docs.md. Each must answer 200 with data. The storefront recipes (scrapes, the
// screenshots they take, Signals) need a live storefront: storefront-recipes.test.ts follows those
// of /v1/examples and storefront-route-examples.test.ts those of docs.md; between them and this
// file every Example: line of docs.md is followed. The rate-limit header examples of
// docs.md and llms.txt must be what a starter key's first request really gets.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintApiKey } from '../../src/access/api-keys.ts';
import { startSeededServer, type SeededServer } from '../support/seeded-server.ts';
import { docsExamples, hasData, needsStorefront } from './support/docs-examples.ts';

interface Step {
  method: string;
  path: string;
  body?: object;
}

describe('published recipes on the seeded catalog', () => {
  let server: SeededServer;
  let key: string;

  const get = async (path: string, body?: object) => {
    const res = await fetch(`${server.baseUrl}${path}`, {
      headers: {
        authorization: `Bearer ${key}`,
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      ...(body ? { method: 'POST', body: JSON.stringify(body) } : {}),
    });
    return { status: res.status, headers: res.headers, body: (await res.json()) as any };
  };
  const text = async (path: string) => (await fetch(`${server.baseUrl}${path}`)).text();

  beforeAll(async () => {
    server = await startSeededServer({ stores: 2000 });
    key = (
      await mintApiKey(server.services.db.prisma, {
        accountExternalId: 'recipe-reader',
        plan: 'pro',
      })
    ).key;
  }, 300_000);
  afterAll(async () => {
    await server?.close();
  });

  it('each catalog workflow of /v1/examples answers data at every step', async () => {
    const { body: examples } = await get('/v1/examples');
    const catalogWorkflows = (examples.workflows as Array<{ id: string; steps: Step[] }>).filter(
      (workflow) => !workflow.steps.some((step) => needsStorefront(step.path)),
    );
    expect(catalogWorkflows.map((workflow) => workflow.id)).toEqual([
      'search-then-fetch',
      'cohort-rollup-then-drill-down',
      'market-then-movers',
      'app-then-its-stores',
      'technology-then-stores',
      'lookup-a-list',
      'app-changes-then-stores',
    ]);
    for (const workflow of catalogWorkflows) {
      // {domain} and {slug}: taken from the first item of the list that named them, as its step's `next` says
      const taken: Record<string, string> = {};
      for (const step of workflow.steps) {
        // reads only: GET, or the bulk lookup's POST of a question
        expect(step.method === 'GET' || step.path === '/v1/stores/lookup', step.path).toBe(true);
        const path = step.path.replace(/\{(domain|slug)\}/g, (_, name: string) =>
          encodeURIComponent(taken[name]!),
        );
        const { status, body } = await get(path, step.body);
        expect([path, status]).toEqual([path, 200]);
        expect(hasData(body), `${workflow.id}: ${path} answers data`).toBe(true);
        const first = Array.isArray(body.data) ? body.data[0] : undefined;
        for (const name of ['domain', 'slug'])
          if (typeof first?.[name] === 'string') taken[name] ??= first[name];
      }
    }
  });

  it('the example request of every catalog route in docs.md answers data', async () => {
    const docs = await text('/v1/docs.md');
    // every Example: line is a request; those needing a storefront are storefront-route-examples.test.ts's
    const all = docsExamples(docs);
    expect(all).toHaveLength([...docs.matchAll(/^Example: /gm)].length);
    const catalog = all.filter((example) => !needsStorefront(example.path));
    expect(all.filter((example) => needsStorefront(example.path)).length).toBeGreaterThanOrEqual(
      23,
    );
    // reads only: GET, or a POST whose body is a question (the bulk store lookup)
    expect(
      catalog.filter((example) => example.method !== 'GET').map((example) => example.path),
    ).toEqual(['/v1/stores/lookup']);
    expect(catalog.length).toBeGreaterThanOrEqual(18);
    for (const { path, body: question } of catalog) {
      const { status, body } = await get(path, question);
      expect([path, status]).toEqual([path, 200]);
      expect(hasData(body), `${path} answers data`).toBe(true);
    }
  });

  it('the two ways docs.md and llms.txt show of writing a full URL as {domain} answer data', async () => {
    for (const document of [await text('/v1/docs.md'), await text('/v1/llms.txt')]) {
      const line = document.split('\n').find((l) => l.includes('A full URL as {domain}'))!;
      const paths = [...line.matchAll(/\((\/v1\/stores\/[^)\s]+)\)/g)].map((match) => match[1]!);
      expect(paths).toHaveLength(2);
      for (const path of paths) {
        const { status, body } = await get(path);
        expect([path, status]).toEqual([path, 200]);
        expect(hasData(body), `${path} answers data`).toBe(true);
      }
    }
  });

  it("the rate-limit header examples are what a starter key's first store search gets", async () => {
    const starter = (
      await mintApiKey(server.services.db.prisma, {
        accountExternalId: 'first-search',
        plan: 'starter',
      })
    ).key;
    const res = await fetch(`${server.baseUrl}/v1/stores?q=river`, {
      headers: { 'x-api-key': starter },
    });
    expect(res.status).toBe(200);
    const policy = res.headers.get('ratelimit-policy')!;
    const left = res.headers.get('ratelimit')!;
    // the same text, but for the seconds left in today (the examples say an hour)
    const sameButToday = (header: string) =>
      header
        .replace(/"perKeyDaily";r=(\d+);t=\d+/, '"perKeyDaily";r=$1;t=3600')
        .replace(/"storeSearches";r=(\d+);t=\d+/, '"storeSearches";r=$1;t=3600');
    for (const document of [await text('/v1/docs.md'), await text('/v1/llms.txt')]) {
      expect(document).toContain(`RateLimit-Policy: ${policy}`);
      expect(document).toContain(`RateLimit: ${sameButToday(left)}`);
    }
    const openapi = JSON.stringify(await (await fetch(`${server.baseUrl}/v1/openapi.json`)).json());
    expect(openapi).toContain(policy.replace(/"/g, '\\"'));
    expect(openapi).toContain(sameButToday(left).replace(/"/g, '\\"'));
  });
});
