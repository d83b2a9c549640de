// GET /v1/signals/{domain}/ads (pages of creatives, newest first) and /ads/overview (ads versus the
// watch's estimated sales): the lift on a known sales series, the note before 2 snapshots, the
// limits of `days`, and who may read. Creatives, snapshots and watches are inserted as rows.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { overviewDays, salesLift } from '../../src/signals/ads/ads-lift.ts';
import { startAdsServer, type AdsAccount, type AdsServer } from './support/ads-server.ts';

const DOMAIN = 'liftshop.test';
const QUIET = 'quietshop.test';
const DAY = 86_400_000;
const dayOf = (n: number) => new Date(Date.now() - n * DAY).toISOString().slice(0, 10);
/** noon UTC, `n` days ago */
const noonOf = (n: number) => new Date(`${dayOf(n)}T12:00:00.000Z`);

describe('ads list and ads-versus-sales overview', () => {
  let t: AdsServer;
  let alice: AdsAccount;
  let mallory: AdsAccount;
  let partner: AdsAccount;
  let watchId: number;

  /** one tracked variant, one snapshot per day from `days` days ago through today, stock falling by `soldOn(day)` */
  async function snapshotSeries(
    signalId: number,
    days: number,
    soldOn: (daysAgo: number) => number,
  ) {
    const [variant] = await t.sql(
      `INSERT INTO tracked_variants (signal_id, product_handle, variant_id, title) VALUES ($1, 'boot', 'v-1', 'Boot / 42') RETURNING id`,
      [signalId],
    );
    let stock = 1_000;
    for (let n = days; n >= 0; n--) {
      if (n < days) stock -= soldOn(n);
      const [probe] = await t.sql(
        `INSERT INTO signal_probes (signal_id, kind, status, created_at, started_at, finished_at) VALUES ($1, 'scheduled', 'done', $2, $2, $2) RETURNING id`,
        [signalId, noonOf(n)],
      );
      await t.sql(
        `INSERT INTO inventory_snapshots (tracked_variant_id, probe_id, taken_at, stock, price, available) VALUES ($1, $2, $3, $4, 20, true)`,
        [variant.id, probe.id, noonOf(n), stock],
      );
    }
  }

  async function addAd(
    storeId: number,
    network: string,
    externalId: string,
    firstDaysAgo: number,
    lastDaysAgo: number,
    active: boolean,
  ) {
    await t.sql(
      `INSERT INTO ads (store_id, network, external_id, headline, first_seen_at, last_seen_at, active) VALUES ($1, $2, $3, $3, $4, $5, $6)`,
      [storeId, network, externalId, noonOf(firstDaysAgo), noonOf(lastDaysAgo), active],
    );
  }

  beforeAll(async () => {
    t = await startAdsServer();
    alice = await t.account('alice');
    mallory = await t.account('mallory');
    partner = await t.account('partner', ['signals:read']);
    const storeId = await t.addStore(DOMAIN);
    const quietId = await t.addStore(QUIET);
    watchId = await t.watch(alice, DOMAIN);
    await t.watch(alice, QUIET);
    // a campaign launched 4 days ago (still running), a TikTok ad 4 days ago too, and one that ran 40 to 30 days ago
    await addAd(storeId, 'meta', 'launch', 4, 0, true);
    await addAd(storeId, 'tiktok', 'tt-launch', 4, 1, false);
    await addAd(storeId, 'google', 'old', 40, 30, false);
    // 25 more creatives to page through, launched 20 to 44 days ago (before the lift's days), ended 5 days ago
    for (let i = 0; i < 25; i++)
      await addAd(storeId, 'google', `page-${String(i).padStart(2, '0')}`, 20 + i, 5, false);
    // sales: 4 units a day from 8 to 5 days ago, 10 a day from 4 days ago through today (price 20)
    await snapshotSeries(watchId, 9, (n) => (n >= 5 ? 4 : 10));
    await addAd(quietId, 'meta', 'quiet-1', 3, 0, true);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('lists creatives newest first in the list envelope, page by page', async () => {
    const first = await t.call('GET', `/v1/signals/${DOMAIN}/ads?limit=2`, alice.key);
    expect(first.status).toBe(200);
    expect(first.body.page).toEqual({ limit: 2, offset: 0, count: 2, hasMore: true, total: 28 });
    expect(first.body.data.map((a: any) => a.externalId).sort()).toEqual(['launch', 'tt-launch']);
    expect(first.body.data[0]).toMatchObject({
      network: expect.any(String),
      active: expect.any(Boolean),
      firstSeenAt: expect.any(String),
    });

    const seen: string[] = [];
    let offset = 0;
    for (;;) {
      const page = await t.call(
        'GET',
        `/v1/signals/${DOMAIN}/ads?limit=10&offset=${offset}`,
        alice.key,
      );
      seen.push(...page.body.data.map((a: any) => a.firstSeenAt));
      if (!page.body.page.hasMore) break;
      offset += 10;
    }
    expect(seen).toHaveLength(28);
    expect([...seen].sort().reverse()).toEqual(seen);

    const last = await t.call('GET', `/v1/signals/${DOMAIN}/ads?limit=10&offset=20`, alice.key);
    expect(last.body.page).toEqual({ limit: 10, offset: 20, count: 8, hasMore: false, total: 28 });
  });

  it('filters by network and refuses a bad limit or network with bad_request', async () => {
    const meta = await t.call('GET', `/v1/signals/${DOMAIN}/ads?network=meta`, alice.key);
    expect(meta.body.data.map((a: any) => a.externalId)).toEqual(['launch']);
    expect(meta.body.page.total).toBe(1);
    const defaults = await t.call('GET', `/v1/signals/${DOMAIN}/ads`, alice.key);
    expect(defaults.body.page).toMatchObject({ limit: 20, count: 20, hasMore: true });

    const tooMany = await t.server.app.inject({
      url: `/v1/signals/${DOMAIN}/ads?limit=101`,
      headers: { authorization: `Bearer ${alice.key}` },
    });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().error.details.parameter).toBe('limit');
    const unknown = await t.server.app.inject({
      url: `/v1/signals/${DOMAIN}/ads?network=bing`,
      headers: { authorization: `Bearer ${alice.key}` },
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error.details.parameter).toBe('network');
  });

  it('sets running creatives beside the estimated sales and measures the lift after the launch', async () => {
    const { status, body } = await t.call(
      'GET',
      `/v1/signals/${DOMAIN}/ads/overview?days=10`,
      alice.key,
    );
    expect(status).toBe(200);
    expect(body).toMatchObject({
      domain: DOMAIN,
      days: 10,
      from: dayOf(9),
      to: dayOf(0),
      isEstimate: true,
      snapshots: 10,
      note: null,
    });
    expect(body.method).toContain('Estimate');
    expect(body.daily.map((d: any) => d.day)).toEqual(
      Array.from({ length: 10 }, (_, i) => dayOf(9 - i)),
    );

    const day = (n: number) => body.daily.find((d: any) => d.day === dayOf(n));
    expect(day(9)).toMatchObject({ units: null, revenueUsd: null, afterLaunch: false });
    expect(day(6)).toMatchObject({
      units: 4,
      revenueUsd: 80,
      afterLaunch: false,
      activeAds: { meta: 0, tiktok: 0, google: 25, total: 25 },
    });
    expect(day(4)).toMatchObject({ units: 10, revenueUsd: 200, afterLaunch: true });
    expect(day(4).activeAds).toEqual({ meta: 1, tiktok: 1, google: 0, total: 2 });
    expect(day(4).newAds).toEqual({ meta: 1, tiktok: 1, google: 0, total: 2 });
    // the TikTok creative was last seen a day ago; the Meta one is still active
    expect(day(0).activeAds).toEqual({ meta: 1, tiktok: 0, google: 0, total: 1 });
    // the page-* creatives ran until 5 days ago
    expect(day(5).activeAds.google).toBe(25);
    expect(day(4).activeAds.google).toBe(0);

    expect(body.lift).toEqual({
      windowDays: 7,
      daysAfterLaunch: 5,
      otherDays: 4,
      meanUnitsAfterLaunch: 10,
      meanUnitsOtherDays: 4,
      unitsLiftPercent: 150,
      meanRevenueAfterLaunch: 200,
      meanRevenueOtherDays: 80,
      meanRevenueAfterLaunchUsd: 200,
      meanRevenueOtherDaysUsd: 80,
      revenueLiftPercent: 150,
    });
    expect(body.currency).toBe('USD');
  });

  it('answers empty sales, a null lift and a note before 2 snapshots', async () => {
    const { status, body } = await t.call('GET', `/v1/signals/${QUIET}/ads/overview`, alice.key);
    expect(status).toBe(200);
    expect(body).toMatchObject({ days: 30, snapshots: 0, lift: null });
    expect(body.note).toContain('at least 2 inventory snapshots');
    expect(body.daily).toHaveLength(30);
    expect(body.daily.every((d: any) => d.units === null)).toBe(true);
    expect(body.daily.at(-1).activeAds.meta).toBe(1);
  });

  it('takes days from 1 to 180', async () => {
    const longest = await t.call('GET', `/v1/signals/${DOMAIN}/ads/overview?days=180`, alice.key);
    expect(longest.body.daily).toHaveLength(180);
    for (const bad of ['0', '181', 'ten']) {
      const res = await t.server.app.inject({
        url: `/v1/signals/${DOMAIN}/ads/overview?days=${bad}`,
        headers: { authorization: `Bearer ${alice.key}` },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.details.parameter).toBe('days');
    }
  });

  it('serves the same fields on Signal in GraphQL', async () => {
    const res = await t.server.app.inject({
      method: 'POST',
      url: '/graphql',
      headers: { authorization: `Bearer ${alice.key}` },
      payload: {
        query: `{ signal(domain: "${DOMAIN}") { ads(network: TIKTOK, first: 5) { totalCount edges { node { externalId active } } }
                  adsOverview(days: 10) { lift { unitsLiftPercent daysAfterLaunch } } } }`,
      },
    });
    expect(res.json().errors).toBeUndefined();
    expect(res.json().data).toEqual({
      signal: {
        ads: { totalCount: 1, edges: [{ node: { externalId: 'tt-launch', active: false } }] },
        adsOverview: { lift: { unitsLiftPercent: 150, daysAfterLaunch: 5 } },
      },
    });
  });

  it('another account gets not_found; a partner key reads any watched domain', async () => {
    for (const path of ['ads', 'ads/overview']) {
      const stranger = await t.call('GET', `/v1/signals/${DOMAIN}/${path}`, mallory.key);
      expect(stranger.status).toBe(404);
      expect(stranger.body.error.code).toBe('not_found');
      const asPartner = await t.call('GET', `/v1/signals/${DOMAIN}/${path}`, partner.key);
      expect(asPartner.status).toBe(200);
    }
    const unwatched = await t.call('GET', `/v1/signals/nobody-watches.test/ads`, partner.key);
    expect(unwatched.status).toBe(404);
  });
});

describe('the lift computation', () => {
  const sales = (units: number[]) =>
    units.map((u, i) => ({
      day: `2026-01-${String(i + 1).padStart(2, '0')}`,
      units: u,
      revenueUsd: u * 5,
    }));
  const days = Array.from({ length: 10 }, (_, i) => `2026-01-${String(i + 1).padStart(2, '0')}`);

  it('is null when no day follows a launch, and when the other days sold nothing', () => {
    const none = salesLift(overviewDays(days, [], sales([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])));
    expect(none).toMatchObject({
      daysAfterLaunch: 0,
      otherDays: 10,
      unitsLiftPercent: null,
      meanUnitsOtherDays: 5.5,
    });
    const launch = [{ network: 'meta' as const, firstDay: '2026-01-06', lastDay: '2026-01-06' }];
    const zero = salesLift(overviewDays(days, launch, sales([0, 0, 0, 0, 0, 3, 3, 3, 3, 3])));
    expect(zero).toMatchObject({
      daysAfterLaunch: 5,
      otherDays: 5,
      meanUnitsAfterLaunch: 3,
      meanUnitsOtherDays: 0,
      unitsLiftPercent: null,
    });
  });

  it('counts a launch for 7 days, its own included, and a drop as a negative lift', () => {
    const launch = [{ network: 'google' as const, firstDay: '2026-01-02', lastDay: '2026-01-02' }];
    const result = overviewDays(days, launch, sales([9, 2, 2, 2, 2, 2, 2, 2, 8, 8]));
    expect(result.map((d) => d.afterLaunch)).toEqual([
      false,
      true,
      true,
      true,
      true,
      true,
      true,
      true,
      false,
      false,
    ]);
    expect(salesLift(result)).toMatchObject({
      daysAfterLaunch: 7,
      otherDays: 3,
      meanUnitsAfterLaunch: 2,
      meanUnitsOtherDays: 8.33,
      unitsLiftPercent: -76,
    });
  });
});
