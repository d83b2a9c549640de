// The living catalog's target: a store whose storefront changed between two observations shows the
// change in /v1/changes, /v1/products/changes and its history within one cycle of the scheduler,
// against fixture storefronts on loopback. Also: how a store enters the catalog (an import,
// validated as a storefront) and how the scheduler keeps it (its next time from the policy).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCatalogCli } from '../../app/cli/catalog.ts';
import { MAX_INTERVAL_HOURS } from '../../src/storefront/observation-policy.ts';
import { DAY_MS, startCatalogHarness, type CatalogHarness } from './support/catalog-harness.ts';

let h: CatalogHarness;

beforeAll(async () => {
  h = await startCatalogHarness();
});
afterAll(() => h?.close());

const candidate = (domain: string) =>
  h.waitForRow<{
    status: string;
    reason: string | null;
    store_id: number | null;
    source: string;
    found_on: string | null;
  }>(
    `SELECT status::text, reason, store_id, source, found_on FROM catalog_candidates WHERE domain = $1 AND status NOT IN ('pending', 'queued')`,
    [domain],
  );

describe('entering the catalog', () => {
  it('takes in an imported domain only after validating it as a storefront, and schedules it', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'catalog-import-'));
    const file = path.join(dir, 'stores.csv');
    await writeFile(
      file,
      'name,website\nChanging,https://www.changing.test/\nNot a shop,notshop.test\nbroken,not a domain\nSeed,quiet.store.example\n',
    );
    const out: string[] = [];
    const code = await runCatalogCli(
      ['import', file],
      { DATABASE_URL: h.databaseUrl, LOG_LEVEL: 'silent' },
      { out: (t) => out.push(t), err: () => undefined },
    ).finally(() => rm(dir, { recursive: true, force: true }));
    expect(code).toBe(0);
    expect(JSON.parse(out.join(''))).toEqual({
      domains: 2,
      offered: 2,
      known: 0,
      repeated: 0,
      invalid: 2,
    });

    expect(await candidate('changing.test')).toMatchObject({
      status: 'accepted',
      source: 'import',
      found_on: 'stores.csv',
    });
    const rejected = await candidate('notshop.test');
    expect(rejected.status).toBe('rejected');
    expect(rejected.reason).toContain('not a Shopify storefront');
    expect((await h.get('/v1/stores/notshop.test')).status).toBe(404);

    const store = await h.get('/v1/stores/changing.test');
    expect(store.status).toBe(200);
    expect(store.body.observation).toMatchObject({ presence: 'active', failureKind: null });
    const next = Date.parse(store.body.observation.nextObservationAt) - h.clock.now().getTime();
    expect(next).toBeGreaterThan(0);
    expect(next).toBeLessThanOrEqual(MAX_INTERVAL_HOURS * 3_600_000 * 1.1);
    expect(await h.logOf('changing.test')).toEqual([
      { trigger: 'discovery', outcome: 'ok', changes: 0 },
    ]);
  });

  it('refuses a second name of a store it holds: the same myshopify.com store', async () => {
    await h.offer(['alias.test']);
    expect(await candidate('alias.test')).toMatchObject({
      status: 'duplicate',
      reason: expect.stringContaining('changing.test'),
    });
    expect((await h.get('/v1/stores/alias.test')).status).toBe(404);
  });

  it('finds other storefronts linked from an observed homepage and validates them too', async () => {
    await h.offer(['linker.test']);
    expect(await candidate('linker.test')).toMatchObject({ status: 'accepted' });
    expect(await candidate('linked.test')).toMatchObject({
      status: 'accepted',
      source: 'link',
      found_on: 'linker.test',
    });
    expect(await candidate('nowhere-shop.test')).toMatchObject({
      status: 'rejected',
      source: 'link',
    });
    // social networks and the platform's own sites are never candidates
    const { rows } = await h.pool.query(
      `SELECT domain FROM catalog_candidates WHERE found_on = 'linker.test' ORDER BY domain`,
    );
    expect(rows.map((r) => r.domain)).toEqual(['linked.test', 'nowhere-shop.test']);
  });
});

describe('one cycle of the scheduler', () => {
  it('shows a changed storefront in /v1/changes, /v1/products/changes and the history', async () => {
    const firstDay = h.clock.now().toISOString().slice(0, 10);
    h.fixtures.setVersion('changing.test', 2); // Mug 20 -> 16, Bowl removed, Vase new, Judge.me -> Klaviyo, Dawn -> Sense
    // nothing is read before the store is due
    const before = await h.lastLogId();
    await h.tick();
    await h.settled();
    expect(await h.logOf('changing.test')).toHaveLength(1);

    await h.advance(MAX_INTERVAL_HOURS * 3_600_000 * 1.1 + DAY_MS); // past any interval the policy gives
    const observed = await h.nextObservation('changing.test', before);
    expect(observed).toMatchObject({ trigger: 'scheduled', outcome: 'ok' });
    expect(observed.changes).toBeGreaterThanOrEqual(6);
    const today = h.clock.now().toISOString().slice(0, 10);

    const changes = await h.get('/v1/changes?domain=changing.test&limit=50');
    expect(changes.status).toBe(200);
    const types = changes.body.data
      .map(
        (c: { changeType: string; subject: string | null }) => `${c.changeType}:${c.subject ?? ''}`,
      )
      .sort();
    expect(types).toEqual(
      [
        'app_installed:klaviyo-email-marketing',
        'app_uninstalled:judgeme',
        'new_sku:vase',
        'price_decrease:mug',
        'removed_sku:bowl',
        'theme_changed:',
      ].sort(),
    );

    const productChanges = await h.get('/v1/products/changes?changeType=price_decrease');
    expect(productChanges.status).toBe(200);
    expect(productChanges.body.data).toContainEqual(
      expect.objectContaining({
        domain: 'changing.test',
        changeType: 'price_decrease',
        changePct: -20,
      }),
    );

    const history = await h.get('/v1/stores/changing.test/history');
    expect(
      history.body.data.map((d: { day: string; synthetic: boolean; productCount: number }) => [
        d.day,
        d.synthetic,
        d.productCount,
      ]),
    ).toEqual([
      [today, false, 3],
      [firstDay, false, 3],
    ]);

    const store = await h.get('/v1/stores/changing.test');
    expect(store.body.theme).toBe('Sense');

    // the same state as `npm run catalog -- status` prints it
    const out: string[] = [];
    expect(
      await runCatalogCli(
        ['status'],
        { DATABASE_URL: h.databaseUrl, LOG_LEVEL: 'silent' },
        { out: (t) => out.push(t), err: () => undefined },
      ),
    ).toBe(0);
    const status = JSON.parse(out.join(''));
    expect(status.stores).toMatchObject({ scheduled: 3, active: 3, vanished: 0 });
    expect(status.candidates).toMatchObject({ accepted: 3, duplicate: 1, rejected: 2 });
    expect(status.queue.map((q: { task: string }) => q.task)).toContain('catalog-tick');
    expect(status.workers).toHaveLength(1);
    expect(status.workers[0]).toMatchObject({ concurrency: 2, globalConcurrency: 4 });
    expect(store.body.observation.presence).toBe('active');
    expect(Date.parse(store.body.observation.lastObservedAt)).toBe(
      Date.parse(store.body.lastScrapedAt),
    );
  });
});
