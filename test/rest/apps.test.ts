// Contract tests of the Apps routes on the known catalog, through the real HTTP server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXPECTED } from '../support/catalog-fixture.ts';
import { openRestApp, type RestApp } from './support/rest-app.ts';

const slugs = (body: { data: Array<{ slug: string }> }) => body.data.map((app) => app.slug);
const domains = (stores: Array<{ domain: string }>) => stores.map((store) => store.domain);

describe('Apps routes', () => {
  let rest: RestApp;
  beforeAll(async () => {
    rest = await openRestApp({ fixture: true });
  });
  afterAll(async () => {
    await rest?.close();
  });

  it('GET /v1/apps lists apps by install count, or the ones matching q', async () => {
    const all = await rest.get('/v1/apps');
    expect(all.status).toBe(200);
    expect(slugs(all.body)).toEqual(EXPECTED.appsByInstalls);
    expect(all.body.page).toEqual({ limit: 20, offset: 0, count: 4, hasMore: false, total: 4 });
    const q = await rest.get('/v1/apps?q=klaviyo');
    // klaviyo alone: none of the other apps of the fixture match
    expect(slugs(q.body)).toEqual(['klaviyo']);
    expect(q.body.page).toMatchObject({ count: 1, total: 1 });
  });

  it('GET /v1/apps/{slug} returns the catalog row plus the install-base sample, busiest stores first', async () => {
    const res = await rest.get('/v1/apps/klaviyo');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      slug: 'klaviyo',
      name: 'Klaviyo: Email Marketing & SMS',
      developer: 'Klaviyo',
      rating: 4.6,
      reviewCount: 2400,
      installCount: 4,
    });
    expect(domains(res.body.installBaseSample)).toEqual(EXPECTED.klaviyoStores);
  });

  it('GET /v1/apps/{slug} answers an unknown app with not_found naming the slug', async () => {
    const res = await rest.get('/v1/apps/no-such-app');
    expect(res.status).toBe(404);
    expect(res.body.error).toMatchObject({ code: 'not_found', details: { slug: 'no-such-app' } });
    expect((await rest.get('/v1/apps/no-such-app/stores')).status).toBe(404);
  });

  it('GET /v1/apps/{slug}/stores pages the store cards running the app', async () => {
    const res = await rest.get('/v1/apps/klaviyo/stores?limit=2');
    expect(res.body.page).toEqual({ limit: 2, offset: 0, count: 2, hasMore: true, total: 4 });
    expect(domains(res.body.data)).toEqual(EXPECTED.klaviyoStores.slice(0, 2));
    const last = await rest.get('/v1/apps/klaviyo/stores?limit=2&offset=2');
    expect(last.body.page.hasMore).toBe(false);
    expect(domains(last.body.data)).toEqual(EXPECTED.klaviyoStores.slice(2));
    expect((await rest.get('/v1/apps/klaviyo/stores?limit=101')).body.error.details.parameter).toBe(
      'limit',
    );
  });
});
