// Contract tests of GET /v1/changes on the known catalog, through the real HTTP server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXPECTED, FIXTURE_CHANGES } from '../support/catalog-fixture.ts';
import { openRestApp, type RestApp } from './support/rest-app.ts';

describe('GET /v1/changes', () => {
  let rest: RestApp;
  beforeAll(async () => {
    rest = await openRestApp({ fixture: true });
  });
  afterAll(async () => {
    await rest?.close();
  });

  it('lists every kind of change, newest first, in the list envelope', async () => {
    const res = await rest.get('/v1/changes?limit=100');
    expect(res.status).toBe(200);
    expect(res.body.page).toEqual({
      limit: 100,
      offset: 0,
      count: FIXTURE_CHANGES.length,
      hasMore: false,
      total: FIXTURE_CHANGES.length,
    });
    const times = res.body.data.map((change: { detectedAt: string }) =>
      Date.parse(change.detectedAt),
    );
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });

  it('names the parameter of a day no calendar has (since=0000-01-01, 2025-02-30)', async () => {
    for (const url of [
      '/v1/changes?since=0000-01-01',
      '/v1/changes?since=2025-02-30',
      '/v1/products/changes?since=0000-01-01',
    ]) {
      const res = await rest.get(url);
      expect(res.status, url).toBe(400);
      expect(res.body.error, url).toMatchObject({
        code: 'bad_request',
        details: { parameter: 'since', rule: expect.stringContaining('YYYY-MM-DD') },
      });
    }
    expect((await rest.get('/v1/changes?since=0001-01-01')).status).toBe(200);
  });

  it('filters on store, entity and day', async () => {
    const acme = await rest.get(
      `/v1/changes?domain=${encodeURIComponent('https://acme-apparel.com')}`,
    );
    expect(acme.body.data.map((change: { changeType: string }) => change.changeType)).toEqual(
      EXPECTED.acmeChanges,
    );
    const stores = await rest.get('/v1/changes?entity=store');
    expect(stores.body.data).toEqual([
      expect.objectContaining({
        entity: 'store',
        domain: 'bella-beauty.co.uk',
        changeType: 'theme_changed',
        subject: null,
      }),
    ]);
    const since = await rest.get('/v1/changes?entity=product&since=2025-12-26');
    expect(since.body.data.map((change: { subject: string }) => change.subject)).toEqual([
      'fidget-cube',
      'led-strip-lights',
    ]);
  });

  it('answers an empty feed as a success, and bad filters as bad_request', async () => {
    const empty = await rest.get('/v1/changes?since=2030-01-01');
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual({
      data: [],
      page: { limit: 20, offset: 0, count: 0, hasMore: false, total: 0 },
    });
    for (const [query, parameter] of [
      ['entity=products', 'entity'],
      ['since=2025-1-1', 'since'],
      ['limit=101', 'limit'],
      ['changeType=price_decrease', 'changeType'],
    ]) {
      const res = await rest.get(`/v1/changes?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'bad_request', details: { parameter } });
    }
  });
});
