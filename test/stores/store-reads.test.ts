// THE batching guarantee: a page of store cards with their apps, legacy summaries (screenshot,
// socials) and traffic costs the same number of SQL statements and legacy-store round trips
// whether it holds 2 stores or 100. The test services' legacy store is the JSONB table of the same
// database, which store reads join; `separateLegacy` runs the same queries as if it were a backend
// of its own (MongoDB), read through its port in one batched round trip.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LegacySummary } from '../../src/platform/legacy/port.ts';
import { createTestServices, type CatalogTestServices } from '../support/test-services.ts';
import { FIXTURE_APPS, loadCatalogFixture } from '../support/catalog-fixture.ts';
import { query } from '../graphql/support/execute.ts';

const EXTRA_STORES = 120;
let t: CatalogTestServices;

/** 120 more stores, each with two installed apps, a legacy summary and a traffic month. */
async function addStores(services: CatalogTestServices['services']): Promise<void> {
  const pool = services.db.pool;
  await pool.query(
    `INSERT INTO stores (domain, name, country_code, vertical, monthly_visits, revenue_low_usd, revenue_high_usd)
     SELECT 'bulk-' || n || '.com', 'Bulk ' || n, 'US', 'Home', 1000 + n, 100, 200 + n FROM generate_series(1, $1) AS n`,
    [EXTRA_STORES],
  );
  await pool.query(
    `INSERT INTO store_apps (store_id, app_id)
     SELECT s.id, a.id FROM stores s CROSS JOIN apps a WHERE s.domain LIKE 'bulk-%' AND a.slug = ANY($1::text[])`,
    [FIXTURE_APPS.slice(0, 2).map((a) => a.slug)],
  );
  await pool.query(
    `INSERT INTO traffic_monthly (store_id, month, visits, organic_pct, paid_pct, social_pct, direct_pct, referral_pct, source)
     SELECT id, '2025-12-01', 1000, 40, 20, 20, 15, 5, 'similarweb' FROM stores WHERE domain LIKE 'bulk-%'`,
  );
  const summaries: LegacySummary[] = Array.from({ length: EXTRA_STORES }, (_, i) => ({
    domain: `bulk-${i + 1}.com`,
    legacyId: (0xb000 + i).toString(16).padStart(24, '0'),
    screenshotUrl: `https://shots.example/bulk-${i + 1}.png`,
    socials: { instagram: `https://instagram.com/bulk${i + 1}` },
    emails: [],
  }));
  await services.legacy.upsertMany(summaries);
}

const CARDS = `query($first: Int!) {
  stores(first: $first, sort: VISITS) {
    totalCount
    edges { node {
      id domain name monthlyVisits monthlyRevenueUsd { low high } isDropshipper serviceRating serviceGrade
      vertical countryCode sources screenshotUrl socials { instagram facebook } emails legacyId
      traffic { latest { month organic paid social } }
      apps { slug name category }
    } }
  }
}`;

beforeAll(async () => {
  t = await createTestServices({ countStatements: true });
  await loadCatalogFixture(t.services.db.pool, t.services.legacy);
  await addStores(t.services);
});
afterAll(() => t?.close());

/** The same services as if the legacy store were a backend of its own (MongoDB): nothing to join. */
const separateLegacy = () => ({
  ...t.services,
  legacy: { ...t.services.legacy, colocatedTable: undefined },
});

async function measure(first: number, services = t.services) {
  t.counter!.reset();
  const data = await query(services, CARDS, { first });
  return {
    data,
    statements: t.counter!.statements,
    legacy: t.counter!.legacyRoundTrips,
    log: [...t.counter!.log],
  };
}

describe('batching', () => {
  it('counts Prisma statements as well as raw ones (the counter sees every read)', async () => {
    t.counter!.reset();
    await t.services.db.prisma.store.findFirst();
    expect(t.counter!.statements).toBeGreaterThanOrEqual(1);
  });

  it('serves 100 store cards with apps and legacy summaries in as many round trips as 2', async () => {
    const two = await measure(2);
    const hundred = await measure(100);

    const stores = hundred.data.stores.edges.map((e: any) => e.node);
    expect(stores).toHaveLength(100);
    expect(hundred.data.stores.totalCount).toBe(12 + EXTRA_STORES);
    // the page really carries the joined data for every card
    const bulk = stores.filter((s: any) => s.domain.startsWith('bulk-'));
    expect(bulk.length).toBeGreaterThan(80);
    for (const store of bulk) {
      expect(store.apps.map((a: any) => a.slug).sort()).toEqual(
        FIXTURE_APPS.slice(0, 2)
          .map((a) => a.slug)
          .sort(),
      );
      expect(store.screenshotUrl).toBe(
        `https://shots.example/${store.domain.replace('.com', '')}.png`,
      );
      expect(store.sources).toEqual([
        'postgres:stores',
        'postgres:legacy_store_summaries',
        'postgres:traffic_monthly',
      ]);
    }

    expect(hundred.statements, hundred.log.join('\n---\n')).toBe(two.statements);
    expect(hundred.legacy).toBe(two.legacy);
    // and that constant is one statement: the page with its apps, traffic months, legacy summaries and total
    expect(hundred.statements, hundred.log.join('\n---\n')).toBe(1);
    expect(hundred.legacy).toBe(0);
  });

  it('reads a legacy store of its own in one round trip for the whole page', async () => {
    const two = await measure(2, separateLegacy());
    const hundred = await measure(100, separateLegacy());
    const bulk = hundred.data.stores.edges
      .map((e: any) => e.node)
      .filter((s: any) => s.domain.startsWith('bulk-'));
    expect(bulk.length).toBeGreaterThan(80);
    for (const store of bulk) {
      expect(store.screenshotUrl).toBe(
        `https://shots.example/${store.domain.replace('.com', '')}.png`,
      );
      expect(store.sources).toEqual([
        'postgres:stores',
        'postgres:legacy_store_summaries',
        'postgres:traffic_monthly',
      ]);
    }
    expect(hundred.statements).toBe(two.statements);
    expect(hundred.statements).toBe(1);
    expect(hundred.log[0]).not.toMatch(/legacy_store_summaries/);
    expect(hundred.legacy).toBe(1);
  });
});

describe('a store read planned from its selection', () => {
  const read = async (selection: string, services = t.services) => {
    t.counter!.reset();
    const data = await query(services, `{ store(domain: "acme-apparel.com") { ${selection} } }`);
    return {
      data,
      statements: t.counter!.statements,
      legacy: t.counter!.legacyRoundTrips,
      log: [...t.counter!.log],
    };
  };

  it('reads a card of a few columns in one statement of the row alone, without the legacy store', async () => {
    const card = await read('domain name monthlyVisits');
    expect(card.data.store).toEqual({
      domain: 'acme-apparel.com',
      name: 'Acme Apparel',
      monthlyVisits: 120000,
    });
    expect(card.statements).toBe(1);
    expect(card.log[0]).not.toMatch(/traffic_monthly|store_apps/);
    expect(card.legacy).toBe(0);
    // only the card's columns: nothing of the profile (first seen, theme, the models' inputs)
    expect(card.log[0]).not.toMatch(/first_seen_at|theme_name|dropship_signals/);

    const profile = await read('domain theme firstSeenAt');
    expect(profile.data.store.domain).toBe('acme-apparel.com');
    expect(Date.parse(profile.data.store.firstSeenAt)).not.toBeNaN();
    expect(profile.log[0]).toMatch(/first_seen_at/);
  });

  it("reads only the card's columns of a store whose selection is its lists (products, history, changes, observation)", async () => {
    const lists = await read(
      'products(first: 2) { edges { node { handle } } } history(first: 1) { edges { node { day } } } changes(first: 1) { edges { node { changeType } } } observation { presence }',
    );
    expect(lists.data.store.products.edges.length).toBeGreaterThan(0);
    // the lists read by the store's id and domain: nothing of the profile's columns
    const storeRead = lists.log.find((sql) => /FROM stores s WHERE s\.domain/.test(sql));
    expect(storeRead, lists.log.join('\n---\n')).toBeDefined();
    expect(storeRead).not.toMatch(/first_seen_at|theme_name|dropship_signals|social_followers/);
    // a product's store asked for profile columns is its own full read, not the card read above
    const nested = await read(
      'products(first: 1) { edges { node { store { domain firstSeenAt theme } } } }',
    );
    const store = nested.data.store.products.edges[0].node.store;
    expect(store.domain).toBe('acme-apparel.com');
    expect(Date.parse(store.firstSeenAt)).not.toBeNaN();
  });

  it('brings the app stack, the traffic month and the legacy summary along only when selected, all in one statement', async () => {
    const profile = await read(
      'domain apps { slug } traffic { latest { month } } screenshotUrl sources',
    );
    expect(profile.data.store.apps.length).toBeGreaterThan(0);
    expect(profile.data.store.traffic.latest.month).toBe('2025-12-01');
    expect(profile.data.store.screenshotUrl).toBe('https://shots.example/acme.png');
    expect(profile.data.store.sources).toEqual([
      'postgres:stores',
      'postgres:legacy_store_summaries',
      'postgres:traffic_monthly',
    ]);
    expect(profile.statements, profile.log.join('\n---\n')).toBe(1);
    expect(profile.log[0]).toMatch(/traffic_monthly/);
    expect(profile.log[0]).toMatch(/store_apps/);
    expect(profile.log[0]).toMatch(/l\.doc FROM legacy_store_summaries/);
    expect(profile.legacy).toBe(0);

    // a card's sources need only whether a summary exists, not the document
    const card = await read('domain sources');
    expect(card.data.store.sources).toContain('postgres:legacy_store_summaries');
    expect(card.statements).toBe(1);
    expect(card.log[0]).toMatch(/SELECT true FROM legacy_store_summaries/);
    expect(card.log[0]).not.toMatch(/l\.doc/);

    // a legacy store of its own is read alongside, in one round trip
    const separate = await read('domain screenshotUrl sources', separateLegacy());
    expect(separate.data.store.screenshotUrl).toBe('https://shots.example/acme.png');
    expect(separate.data.store.sources).toContain('postgres:legacy_store_summaries');
    expect(separate.statements).toBe(1);
    expect(separate.log[0]).not.toMatch(/legacy_store_summaries/);
    expect(separate.legacy).toBe(1);

    // a field left out by @include(if: false) is not read either
    const skipped = await read('domain apps @include(if: false) { slug }');
    expect(skipped.data.store).toEqual({ domain: 'acme-apparel.com' });
    expect(skipped.log[0]).not.toMatch(/store_apps/);

    const appsOnly = await read('apps { slug }');
    expect(appsOnly.statements).toBe(1);
    expect(appsOnly.log[0]).toMatch(/store_apps/);
    expect(appsOnly.log[0]).not.toMatch(/traffic_monthly/);
    expect(appsOnly.legacy).toBe(0);
  });

  it('looks one store up with a statement PostgreSQL plans once per connection, not at every execution', async () => {
    const { statements } = await read('domain sources traffic { latest { month } }');
    expect(statements).toBe(1);
    const [sent] = t.counter!.sent;
    // the statement as the lookup sent it, prepared on one connection and run as often as PostgreSQL
    // needs to settle on a plan: it must then run its cached generic plan rather than plan each time
    const client = await t.services.db.pool.connect();
    try {
      for (let run = 0; run < 8; run++)
        await client.query({ name: 'lookup-plan-probe', text: sent!.text, values: sent!.values });
      const { rows } = await client.query(
        `SELECT generic_plans::int, custom_plans::int FROM pg_prepared_statements WHERE name = 'lookup-plan-probe'`,
      );
      expect(rows[0].generic_plans, sent!.text).toBeGreaterThan(0);
      await client.query('DEALLOCATE "lookup-plan-probe"');
    } finally {
      client.release();
    }
  });
});

describe('a filtered list planned from its selection', () => {
  const CARD = `domain monthlyVisits monthlyRevenueUsd { low high } isDropshipper serviceRating serviceGrade vertical countryCode
    traffic { latest { month organic } } sources`;
  const list = async (args: string, selection: string) => {
    t.counter!.reset();
    const data = await query(t.services, `{ stores(${args}) { ${selection} } }`);
    return {
      data,
      statements: t.counter!.statements,
      legacy: t.counter!.legacyRoundTrips,
      log: [...t.counter!.log],
    };
  };

  it('reads a page of cards with their traffic months, legacy summaries and the exact total in one statement', async () => {
    const page = await list(
      'filter: { vertical: "home" }, sort: VISITS, first: 20',
      `totalCount pageInfo { hasNextPage } edges { node { ${CARD} } }`,
    );
    const cards = page.data.stores.edges.map((e: any) => e.node);
    expect(cards).toHaveLength(20);
    expect(cards.map((c: any) => c.monthlyVisits)).toEqual(
      [...cards.map((c: any) => c.monthlyVisits)].sort((a, b) => b - a),
    );
    const { n } = (
      await t.services.db.pool.query(
        `SELECT count(*)::int AS n FROM stores WHERE lower(vertical) = 'home'`,
      )
    ).rows[0];
    expect(page.data.stores.totalCount).toBe(n);
    expect(page.data.stores.pageInfo.hasNextPage).toBe(n > 20);
    const bulk = cards.find((c: any) => c.domain.startsWith('bulk-'));
    expect(bulk.traffic.latest.month).toBe('2025-12-01');
    expect(bulk.sources).toEqual([
      'postgres:stores',
      'postgres:legacy_store_summaries',
      'postgres:traffic_monthly',
    ]);
    expect(page.statements, page.log.join('\n---\n')).toBe(1);
    expect(page.legacy).toBe(0);
  });

  it('does not count when the total is not selected, nor read traffic months or columns no card asks for', async () => {
    const page = await list(
      'filter: { vertical: "home" }, sort: VISITS, first: 5',
      'edges { node { domain } }',
    );
    expect(page.data.stores.edges).toHaveLength(5);
    expect(page.statements).toBe(1);
    expect(page.log[0]).not.toMatch(/count\(\*\)|traffic_monthly|first_seen_at/);
    expect(page.legacy).toBe(0);
  });

  it('runs the first page of a filter of equalities as a named statement PostgreSQL stops planning', async () => {
    const page = await list(
      'filter: { vertical: "home" }, sort: VISITS, first: 20',
      `pageInfo { hasNextPage } edges { node { ${CARD} } }`,
    );
    expect(page.statements).toBe(1);
    const [sent] = t.counter!.sent;
    expect(sent!.name).toMatch(/^store-page:/);
    // its values are written in, so on one connection PostgreSQL plans it once and runs that plan
    expect(sent!.values).toEqual([]);
    const client = await t.services.db.pool.connect();
    try {
      for (let i = 0; i < 6; i++) await client.query({ name: 'page-plan-probe', text: sent!.text });
      const { rows } = await client.query(
        `SELECT generic_plans::int, custom_plans::int FROM pg_prepared_statements WHERE name = 'page-plan-probe'`,
      );
      expect(rows[0], sent!.text).toEqual({ generic_plans: 6, custom_plans: 0 });
      await client.query('DEALLOCATE "page-plan-probe"');
    } finally {
      client.release();
    }
    // a later page or a range filter is planned for its values, unnamed
    const later = await list(
      'filter: { vertical: "home", minVisits: 10 }, sort: VISITS, first: 20',
      'edges { node { domain } }',
    );
    expect(later.statements).toBe(1);
    expect(t.counter!.sent[0]!.name).toBeUndefined();
  });

  it('still reports the total on a page past the last row', async () => {
    const { n } = (
      await t.services.db.pool.query(
        `SELECT count(*)::int AS n FROM stores WHERE lower(vertical) = 'home'`,
      )
    ).rows[0];
    const { offsetToCursor } = await import('@pothos/plugin-relay');
    const page = await list(
      `filter: { vertical: "home" }, sort: VISITS, first: 5, after: "${offsetToCursor(n + 10)}"`,
      'totalCount edges { node { domain } }',
    );
    expect(page.data.stores.edges).toEqual([]);
    expect(page.data.stores.totalCount).toBe(n);
    expect(page.statements).toBe(2);
  });
});

describe("another feature's column on the store read", () => {
  it("reads the crawler's observation schedule in the store's own statement", async () => {
    const pool = t.services.db.pool;
    await pool.query(
      `INSERT INTO observation_schedule (store_id, next_at, interval_hours, presence, presence_since, last_observed_at)
       SELECT id, '2026-01-02T03:04:05Z', 24, 'failing', '2025-12-30T00:00:00Z', NULL FROM stores WHERE domain = 'acme-apparel.com'
       ON CONFLICT (store_id) DO UPDATE SET presence = 'failing', presence_since = excluded.presence_since, next_at = excluded.next_at, last_observed_at = NULL`,
    );
    t.counter!.reset();
    const data = await query(
      t.services,
      `{
      store(domain: "acme-apparel.com") { domain name observation { presence presenceSince lastObservedAt nextObservationAt intervalHours } }
      other: store(domain: "bella-beauty.co.uk") { domain observation { presence } } }`,
    );
    expect(data.store.observation).toEqual({
      presence: 'FAILING',
      presenceSince: '2025-12-30T00:00:00.000Z',
      lastObservedAt: null,
      nextObservationAt: '2026-01-02T03:04:05.000Z',
      intervalHours: 24,
    });
    expect(data.other.observation).toBeNull();
    expect(t.counter!.statements, t.counter!.log.join('\n---\n')).toBe(1);
    expect(t.counter!.log[0]).toMatch(/observation_schedule/);
  });
});
