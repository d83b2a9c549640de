// POST /v1/signals/{domain}/ads/probe against fake Meta, TikTok and Google libraries on loopback:
// what each library is asked (bearer token, the store's domain, paging), creatives upserted and
// ended, ad_new_campaign insights for every watch of the store, the 5-minute cooldown, per-network
// failures that never fail the call, networks left unconfigured, and who may probe.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAdsServer, type AdsAccount, type AdsServer } from './support/ads-server.ts';
import { TOKENS } from './support/fake-ad-libraries.ts';

const DOMAIN = 'adshop.test';
const LEGACY_ID = 'ad0000000000000000000001';
const MINUTE = 60_000;
const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);

const byNetwork = (body: any) => Object.fromEntries(body.networks.map((n: any) => [n.network, n]));

describe('ads probe with all three networks configured', () => {
  let t: AdsServer;
  let alice: AdsAccount;
  let bob: AdsAccount;
  let mallory: AdsAccount;
  let partner: AdsAccount;
  let aliceWatch: number;
  let bobWatch: number;
  let first: any;

  beforeAll(async () => {
    t = await startAdsServer();
    alice = await t.account('alice');
    bob = await t.account('bob');
    mallory = await t.account('mallory');
    partner = await t.account('partner', ['signals:read']);
    await t.addStore(DOMAIN, LEGACY_ID);
    aliceWatch = await t.watch(alice, DOMAIN);
    bobWatch = await t.watch(bob, DOMAIN);
    // Meta pages two at a time: three creatives take two requests
    t.libraries.pageSize = 2;
    t.libraries.set('meta', DOMAIN, [
      { id: 'm-old-1', headline: 'Winter sale', body: 'Up to 50% off', firstShown: daysAgo(60) },
      { id: 'm-old-2', headline: 'Free shipping', firstShown: daysAgo(45) },
      { id: 'm-new-1', headline: 'New collection', firstShown: daysAgo(2) },
    ]);
    t.libraries.set('tiktok', DOMAIN, [{ id: '7001', firstShown: daysAgo(90) }]);
    t.libraries.set('google', DOMAIN, [
      { id: 'CR-1', headline: 'Adshop official', firstShown: daysAgo(30) },
      { id: 'CR-2', headline: 'Adshop boots', firstShown: daysAgo(20) },
    ]);
    first = await t.call('POST', `/v1/signals/${DOMAIN}/ads/probe`, alice.key);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('asks each library for the store with its bearer token and reports every network ok', () => {
    expect(first.status).toBe(200);
    expect(byNetwork(first.body)).toEqual({
      meta: { network: 'meta', status: 'ok', adsFound: 3, newAds: 3, endedAds: 0, error: null },
      tiktok: { network: 'tiktok', status: 'ok', adsFound: 1, newAds: 1, endedAds: 0, error: null },
      google: { network: 'google', status: 'ok', adsFound: 2, newAds: 2, endedAds: 0, error: null },
    });

    const meta = t.libraries.requests.meta;
    expect(meta).toHaveLength(2);
    expect(
      meta.every(
        (r) => r.authorization === `Bearer ${TOKENS.meta}` && r.path === '/v21.0/ads_archive',
      ),
    ).toBe(true);
    expect(meta[0]!.query.get('search_terms')).toBe(DOMAIN);
    expect(meta[0]!.query.get('ad_active_status')).toBe('ACTIVE');
    expect(meta[0]!.query.get('ad_reached_countries')).toBe('["ALL"]');
    expect(meta[0]!.query.get('fields')).toContain('ad_delivery_start_time');
    expect(meta[0]!.query.get('after')).toBeNull();
    expect(meta[1]!.query.get('after')).toBe('page-2');

    const [tiktok] = t.libraries.requests.tiktok;
    expect(tiktok).toMatchObject({
      method: 'POST',
      path: '/v2/research/adlib/ad/query/',
      authorization: `Bearer ${TOKENS.tiktok}`,
    });
    expect(tiktok!.query.get('fields')).toContain('ad.first_shown_date');
    expect(tiktok!.body).toMatchObject({
      search_term: DOMAIN,
      search_type: 'exact_phrase',
      filters: { country_code: 'ALL' },
    });

    const [google] = t.libraries.requests.google;
    expect(google).toMatchObject({ path: '/creatives', authorization: `Bearer ${TOKENS.google}` });
    expect(google!.query.get('domain')).toBe(DOMAIN);
  });

  it("records the creatives with the library's first-shown day", async () => {
    const ads = await t.sql(
      `SELECT network, external_id, headline, active, first_seen_at FROM ads ORDER BY network, external_id`,
    );
    expect(ads.map((a) => `${a.network}:${a.external_id}`)).toEqual([
      'google:CR-1',
      'google:CR-2',
      'meta:m-new-1',
      'meta:m-old-1',
      'meta:m-old-2',
      'tiktok:7001',
    ]);
    expect(ads.every((a) => a.active)).toBe(true);
    const oldMeta = ads.find((a) => a.external_id === 'm-old-1');
    expect(oldMeta.headline).toBe('Winter sale');
    expect(oldMeta.first_seen_at.toISOString().slice(0, 10)).toBe(daysAgo(60));
  });

  it('raises ad_new_campaign for every watch of the store, on a first answer only for creatives of the last 7 days', async () => {
    const insights = await t.sql(
      `SELECT signal_id, account_id, kind, title, data FROM insights ORDER BY signal_id`,
    );
    // meta's m-new-1 is the only recent creative; the rest was already running
    expect(insights).toHaveLength(2);
    expect(insights.map((i) => [i.signal_id, i.account_id])).toEqual([
      [aliceWatch, alice.id],
      [bobWatch, bob.id],
    ]);
    for (const insight of insights) {
      expect(insight.kind).toBe('ad_new_campaign');
      expect(insight.title).toContain('Meta Ad Library');
      expect(insight.data).toMatchObject({ network: 'meta', newAds: 1, externalIds: ['m-new-1'] });
    }
    expect(first.body.insightsCreated).toBe(2);
  });

  it('leaves the inventory probe progress alone: GET /probe still answers, never with the ads probe', async () => {
    const progress = await t.call('GET', `/v1/signals/${DOMAIN}/probe`, alice.key);
    expect(progress.status).toBe(200);
    expect(progress.body).toMatchObject({ kind: 'first', progress: { status: 'done' } });
    expect(JSON.stringify(progress.body)).not.toContain('"ads"');
  });

  it('refuses a second probe of the same watch within 5 minutes with 429 and Retry-After', async () => {
    t.advance(2 * MINUTE);
    const again = await t.call('POST', `/v1/signals/${DOMAIN}/ads/probe`, alice.key);
    expect(again.status).toBe(429);
    expect(again.body.error.code).toBe('rate_limited');
    const retryAfter = Number(again.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(170);
    expect(retryAfter).toBeLessThanOrEqual(180);
    expect(again.body.error.details).toMatchObject({
      domain: DOMAIN,
      cooldownSeconds: 300,
      retryAfter,
    });
  });

  it('after the cooldown, records new creatives as campaigns and marks the ones gone inactive', async () => {
    t.advance(4 * MINUTE);
    t.libraries.set('meta', DOMAIN, [
      { id: 'm-old-1', headline: 'Winter sale', body: 'Up to 60% off', firstShown: daysAgo(60) },
      { id: 'm-new-1', headline: 'New collection', firstShown: daysAgo(2) },
      { id: 'm-new-2', headline: 'Spring drop', firstShown: daysAgo(0) },
    ]);
    const second = await t.call('POST', `/v1/signals/${DOMAIN}/ads/probe`, alice.key);
    expect(second.status).toBe(200);
    expect(byNetwork(second.body).meta).toMatchObject({
      status: 'ok',
      adsFound: 3,
      newAds: 1,
      endedAds: 1,
    });
    expect(byNetwork(second.body).google).toMatchObject({
      status: 'ok',
      adsFound: 2,
      newAds: 0,
      endedAds: 0,
    });

    const meta = await t.sql(
      `SELECT external_id, active, body FROM ads WHERE network = 'meta' ORDER BY external_id`,
    );
    expect(meta).toEqual([
      { external_id: 'm-new-1', active: true, body: null },
      { external_id: 'm-new-2', active: true, body: null },
      { external_id: 'm-old-1', active: true, body: 'Up to 60% off' },
      { external_id: 'm-old-2', active: false, body: null },
    ]);
    const campaigns = await t.sql(
      `SELECT signal_id, data FROM insights WHERE data->'externalIds' ? 'm-new-2'`,
    );
    expect(campaigns.map((c) => c.signal_id).sort()).toEqual([aliceWatch, bobWatch].sort());
  });

  it('another account cannot probe the watch (not_found); a partner key may not probe (forbidden)', async () => {
    const stranger = await t.call('POST', `/v1/signals/${DOMAIN}/ads/probe`, mallory.key);
    expect(stranger.status).toBe(404);
    expect(stranger.body.error.code).toBe('not_found');
    const asPartner = await t.call('POST', `/v1/signals/${DOMAIN}/ads/probe`, partner.key);
    expect(asPartner.status).toBe(403);
    expect(asPartner.body.error).toMatchObject({
      code: 'unauthorized',
      details: { reason: 'scope' },
    });
  });

  it('accepts the legacy id and a URL for {domain}; the cooldown is per watch', async () => {
    const byLegacyId = await t.call('POST', `/v1/signals/${LEGACY_ID}/ads/probe`, bob.key);
    expect(byLegacyId.status).toBe(200);
    expect(byLegacyId.body.domain).toBe(DOMAIN);
    t.advance(6 * MINUTE);
    const byUrl = await t.call(
      'POST',
      `/v1/signals/${encodeURIComponent(`https://www.${DOMAIN}/`)}/ads/probe`,
      bob.key,
    );
    expect(byUrl.status).toBe(200);
  });

  it('reports a failing and a hanging network per network, keeps their creatives, and still answers 200', async () => {
    t.advance(6 * MINUTE);
    t.libraries.behaviour.tiktok = 'http_500';
    t.libraries.behaviour.google = 'hang';
    const started = Date.now();
    const mixed = await t.call('POST', `/v1/signals/${DOMAIN}/ads/probe`, alice.key);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(mixed.status).toBe(200);
    const networks = byNetwork(mixed.body);
    expect(networks.meta).toMatchObject({ status: 'ok', adsFound: 3 });
    expect(networks.tiktok).toMatchObject({ status: 'failed', adsFound: 0, newAds: 0 });
    expect(networks.tiktok.error).toContain('HTTP 500');
    expect(networks.google).toMatchObject({ status: 'failed' });
    expect(networks.google.error).toContain('timeout');
    expect(JSON.stringify(mixed.body)).not.toContain(TOKENS.tiktok);
    const kept = await t.sql(
      `SELECT network, active FROM ads WHERE network IN ('tiktok', 'google')`,
    );
    expect(kept).toHaveLength(3);
    expect(kept.every((a) => a.active)).toBe(true);
  });

  it("reports a library's own error answer as that network's failure", async () => {
    t.advance(6 * MINUTE);
    t.libraries.behaviour.tiktok = 'library_error';
    t.libraries.behaviour.google = 'ok';
    const answer = await t.call('POST', `/v1/signals/${DOMAIN}/ads/probe`, alice.key);
    expect(answer.status).toBe(200);
    expect(byNetwork(answer.body).tiktok.error).toContain('rate_limit_exceeded');
    expect(byNetwork(answer.body).google.status).toBe('ok');
  });
});

describe('ads probe with only Meta configured', () => {
  let t: AdsServer;

  beforeAll(async () => {
    t = await startAdsServer({ networks: ['meta'] });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('reports TikTok and Google as not_configured, asks only Meta, and invents nothing', async () => {
    const owner = await t.account('owner');
    await t.addStore(DOMAIN);
    await t.watch(owner, DOMAIN);
    t.libraries.set('meta', DOMAIN, [
      { id: 'only-meta', headline: 'Hello', firstShown: daysAgo(1) },
    ]);
    t.libraries.set('tiktok', DOMAIN, [{ id: '9999', firstShown: daysAgo(1) }]);
    const answer = await t.call('POST', `/v1/signals/${DOMAIN}/ads/probe`, owner.key);
    expect(answer.status).toBe(200);
    const networks = byNetwork(answer.body);
    expect(networks.meta).toMatchObject({ status: 'ok', adsFound: 1, newAds: 1 });
    expect(networks.tiktok).toEqual({
      network: 'tiktok',
      status: 'not_configured',
      adsFound: 0,
      newAds: 0,
      endedAds: 0,
      error: 'ADS_TIKTOK_BASE_URL and ADS_TIKTOK_TOKEN not set',
    });
    expect(networks.google.status).toBe('not_configured');
    expect(t.libraries.requests.tiktok).toHaveLength(0);
    expect(t.libraries.requests.google).toHaveLength(0);
    expect(await t.sql(`SELECT network, external_id FROM ads`)).toEqual([
      { network: 'meta', external_id: 'only-meta' },
    ]);

    // an answer cut at the page limit (5 pages) ends nothing: what it did not list may still be running
    t.advance(6 * 60_000);
    t.libraries.pageSize = 1;
    t.libraries.set(
      'meta',
      DOMAIN,
      Array.from({ length: 6 }, (_, i) => ({ id: `many-${i}`, firstShown: daysAgo(1) })),
    );
    const truncated = await t.call('POST', `/v1/signals/${DOMAIN}/ads/probe`, owner.key);
    expect(byNetwork(truncated.body).meta).toMatchObject({
      status: 'ok',
      adsFound: 5,
      newAds: 5,
      endedAds: 0,
    });
    expect(t.libraries.requests.meta).toHaveLength(6);
    expect(await t.sql(`SELECT active FROM ads WHERE external_id = 'only-meta'`)).toEqual([
      { active: true },
    ]);
  });
});
