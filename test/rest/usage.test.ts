// GET /v1/usage: the key's limits today, by the names of the RateLimit headers, agreeing with them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintApiKey } from '../../src/access/api-keys.ts';
import { DEFAULT_PLANS } from '../../src/access/plans.ts';
import { openRestApp, type RestApp } from './support/rest-app.ts';

/** "perMinute";r=59;t=60, … as {perMinute: {r: 59, t: 60}, …} */
const parseRateLimit = (header: unknown) =>
  Object.fromEntries(
    [...String(header).matchAll(/"(\w+)";r=(\d+);t=(\d+)/g)].map(([, name, r, t]) => [
      name!,
      { r: Number(r), t: Number(t) },
    ]),
  );

describe('GET /v1/usage', () => {
  let rest: RestApp;
  beforeAll(async () => {
    rest = await openRestApp({ fixture: true });
  });
  afterAll(async () => {
    await rest?.close();
  });

  it('in open-dev mode: the per-minute rate of the client address only', async () => {
    const res = await rest.get('/v1/usage');
    expect(res.status).toBe(200);
    expect(res.body.plan).toBe('open-dev');
    expect(res.body.limits.map((l: { name: string }) => l.name)).toEqual(['perMinute']);
  });

  it('counts what the key spent today, bucket by bucket, and agrees with its own rate-limit headers', async () => {
    const key = (
      await mintApiKey(rest.services.db.prisma, {
        accountExternalId: 'usage-reader',
        plan: 'starter',
      })
    ).key;
    const headers = { authorization: `Bearer ${key}` };
    expect((await rest.get('/v1/stores?q=acme', headers)).status).toBe(200);
    expect((await rest.get('/v1/analytics/verticals', headers)).status).toBe(200);
    expect((await rest.get('/v1/stores/acme-apparel.com', headers)).status).toBe(200);

    const res = await rest.get('/v1/usage', headers);
    expect(res.status).toBe(200);
    const plan = DEFAULT_PLANS.starter;
    const byName = Object.fromEntries(res.body.limits.map((l: { name: string }) => [l.name, l]));
    expect(byName).toMatchObject({
      // the three reads; the usage call itself never counts
      perMinute: {
        window: 'minute',
        limit: plan.perMinute,
        used: 3,
        remaining: plan.perMinute - 3,
      },
      perKeyDaily: {
        window: 'day',
        limit: plan.perKeyDaily,
        used: 3,
        remaining: plan.perKeyDaily! - 3,
      },
      storeSearches: { window: 'day', limit: plan.daily!.storeSearches, used: 2 },
      storeLookups: { window: 'day', limit: plan.daily!.storeLookups, used: 1 },
      productSearches: { used: 0, remaining: plan.daily!.productSearches },
      scrapeRequests: { used: 0 },
    });

    // the rate and per-key ceiling are in its RateLimit header with the same figures
    const header = parseRateLimit(res.headers.ratelimit);
    expect(Object.keys(header)).toEqual(['perMinute', 'perKeyDaily']);
    for (const [name, { r, t }] of Object.entries(header)) {
      expect(byName[name].remaining, name).toBe(r);
      expect(Math.abs(byName[name].resetSeconds - t), name).toBeLessThanOrEqual(1);
    }
  });

  it('needs a key once keys exist, like every data route', async () => {
    const res = await rest.get('/v1/usage');
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('unauthorized');
  });
});
