// Exact totals from store_filter_counts: as observations change the catalog (a new store, an app
// installed and dropped, a vertical and a country changed, a store vanished, deleted, and back), the
// total each counted filter answers equals count(*) of the stores the filter lists, and the numbers
// worked out by hand below for a three-store catalog.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadReferenceData } from '../../../src/seed/reference-data.ts';
import { SqlParams, queryRows } from '../../../src/platform/database/sql.ts';
import { writeObservation } from '../../../src/storefront/catalog-writer.ts';
import {
  resolveStoreFilter,
  storeFilterConditions,
  whereClause,
  type StoreFilterValues,
} from '../../../src/stores/store-filter.ts';
import { filterCountKey, filterCountSql } from '../../../src/stores/rollups/store-filter-counts.ts';
import { query } from '../../graphql/support/execute.ts';
import { storefrontObservation } from '../../support/storefront-observation.ts';
import { createTestServices, type CatalogTestServices } from '../../support/test-services.ts';

let t: CatalogTestServices;
const apps: Record<string, number> = {};

beforeAll(async () => {
  t = await createTestServices();
  const { rows } = await t.services.db.pool.query<{ id: number; slug: string }>(
    `INSERT INTO apps (slug, name, category) VALUES ('fc-reviews', 'FC Reviews', null), ('fc-upsell', 'FC Upsell', null)
     RETURNING id, slug`,
  );
  for (const r of rows) apps[r.slug] = r.id;
});
afterAll(() => t?.close());

async function observe(
  domain: string,
  countryCode: string,
  slugs: string[],
  themeName = 'Dawn',
): Promise<void> {
  const client = await t.services.db.pool.connect();
  try {
    await client.query('BEGIN');
    await writeObservation(
      client,
      storefrontObservation({
        domain,
        countryCode,
        themeName,
        apps: slugs.map((slug) => ({
          id: apps[slug]!,
          slug,
          name: slug,
          category: null,
          patterns: [],
        })),
      }),
      { now: new Date(), reference: loadReferenceData(), legacyId: legacyIdOf(domain) },
    );
    await client.query('COMMIT');
  } finally {
    client.release();
  }
}

/** a 24-hex legacy id of its own per domain */
const legacyIdOf = (domain: string) =>
  Buffer.from(domain).toString('hex').padEnd(24, '0').slice(0, 24);

const sql = (text: string, values: unknown[] = []) => t.services.db.pool.query(text, values);

const setPresence = (domain: string, presence: 'vanished' | 'active') =>
  sql(
    `INSERT INTO observation_schedule (store_id, next_at, interval_hours, presence, presence_since)
     SELECT id, now(), 24, $2, now() FROM stores WHERE domain = $1
     ON CONFLICT (store_id) DO UPDATE SET presence = excluded.presence`,
    [domain, presence],
  );

const FILTERS: StoreFilterValues[] = [
  {},
  { vertical: 'Apparel' },
  { vertical: 'HOME' },
  { vertical: 'Beauty' },
  { industry: 'fashion' },
  { category: 'Shoes' },
  { countryCode: 'us' },
  { countryCode: 'DE' },
  { countryCode: 'FR' },
  { countryCode: 'GB' },
  { isDropshipper: true },
  { isDropshipper: false },
  { theme: 'dawn' },
  { theme: 'Impulse' },
  { tld: 'example' },
  { tld: 'shop.example' },
  { tld: '.co.uk' },
  { tld: 'uk' },
  { app: ['fc-reviews'] },
  { app: ['fc-upsell'] },
  { vertical: 'apparel', countryCode: 'FR' },
  { vertical: 'apparel', isDropshipper: true },
  { industry: 'Fashion', category: 'dresses' },
  { countryCode: 'GB', category: 'Skincare' },
  { app: ['fc-reviews'], vertical: 'Beauty' },
  { app: ['fc-reviews'], countryCode: 'US' },
  { app: ['fc-upsell'], isDropshipper: true },
];

const TOTAL = `query($filter: StoreFilter) { stores(filter: $filter, sort: VISITS, first: 1) { totalCount totalCountExact } }`;

/** For every counted filter: the stored count, count(*) of the stores it lists, and the answered total. */
async function totals(): Promise<
  Array<{ filter: string; counted: number; listed: number; answered: number }>
> {
  const pool = t.services.db.pool;
  const out = [];
  for (const values of FILTERS) {
    const filter = await resolveStoreFilter(pool, values);
    const params = new SqlParams();
    const key = filterCountKey(filter, params);
    if (!key) throw new Error(`${JSON.stringify(values)} should be a counted filter`);
    const [counted] = await queryRows<{ n: number }>(
      pool,
      `SELECT ${filterCountSql(key)} AS n`,
      params.values,
    );
    const live = new SqlParams();
    const [listed] = await queryRows<{ n: number }>(
      pool,
      `SELECT count(*)::int AS n FROM stores s ${whereClause(storeFilterConditions(filter, live))}`,
      live.values,
    );
    const { stores } = await query(t.services, TOTAL, { filter: values }).catch((e) => {
      throw new Error(`${JSON.stringify(values)}: ${e.message}`);
    });
    expect(stores.totalCountExact).toBe(true);
    out.push({
      filter: JSON.stringify(values),
      counted: counted!.n,
      listed: listed!.n,
      answered: stores.totalCount,
    });
  }
  return out;
}

async function expectExact(byHand: Record<string, number>) {
  const rows = await totals();
  for (const row of rows)
    expect(row, row.filter).toEqual({ ...row, counted: row.listed, answered: row.listed });
  const of = Object.fromEntries(rows.map((r) => [r.filter, r.listed]));
  for (const [filter, n] of Object.entries(byHand)) expect(of[filter], filter).toBe(n);
}

const classify = (
  domain: string,
  vertical: string,
  industry: string,
  category: string,
  dropshipper: boolean,
) =>
  sql(
    'UPDATE stores SET vertical = $2, industry = $3, category = $4, is_dropshipper = $5 WHERE domain = $1',
    [domain, vertical, industry, category, dropshipper],
  );

describe('store_filter_counts as observations change the catalog', () => {
  it('counts new stores', async () => {
    await observe('alpha.shop.example', 'US', ['fc-reviews']);
    await observe('beta.shop.example', 'DE', ['fc-reviews', 'fc-upsell'], 'Impulse');
    await observe('gamma.co.uk', 'GB', []);
    await classify('alpha.shop.example', 'Apparel', 'Fashion', 'Dresses', false);
    await classify('beta.shop.example', 'Apparel', 'Fashion', 'Shoes', true);
    await classify('gamma.co.uk', 'Beauty', 'Health', 'Skincare', false);
    await expectExact({
      '{}': 3,
      '{"vertical":"Apparel"}': 2,
      '{"countryCode":"us"}': 1,
      '{"isDropshipper":true}': 1,
      '{"theme":"dawn"}': 2,
      '{"tld":"example"}': 2,
      '{"tld":".co.uk"}': 1,
      '{"app":["fc-reviews"]}': 2,
      '{"app":["fc-upsell"]}': 1,
      '{"vertical":"apparel","isDropshipper":true}': 1,
      '{"industry":"Fashion","category":"dresses"}': 1,
    });
  });

  it('follows apps installed and dropped', async () => {
    await observe('gamma.co.uk', 'GB', ['fc-reviews']);
    await observe('beta.shop.example', 'DE', ['fc-reviews'], 'Impulse');
    await classify('beta.shop.example', 'Apparel', 'Fashion', 'Shoes', true);
    await expectExact({
      '{"app":["fc-reviews"]}': 3,
      '{"app":["fc-upsell"]}': 0,
      '{"app":["fc-reviews"],"vertical":"Beauty"}': 1,
      '{"app":["fc-upsell"],"isDropshipper":true}': 0,
    });
  });

  it('moves a store whose vertical or country changes', async () => {
    await classify('alpha.shop.example', 'Home', 'Living', 'Decor', false);
    await observe('beta.shop.example', 'FR', ['fc-reviews'], 'Impulse');
    await classify('beta.shop.example', 'Apparel', 'Fashion', 'Shoes', true);
    await expectExact({
      '{"vertical":"Apparel"}': 1,
      '{"vertical":"HOME"}': 1,
      '{"countryCode":"DE"}': 0,
      '{"countryCode":"FR"}': 1,
      '{"vertical":"apparel","countryCode":"FR"}': 1,
      '{"app":["fc-reviews"],"countryCode":"US"}': 1,
    });
  });

  it('takes out a store found vanished and a store deleted', async () => {
    await setPresence('beta.shop.example', 'vanished');
    await sql('DELETE FROM stores WHERE domain = $1', ['alpha.shop.example']);
    await expectExact({
      '{}': 1,
      '{"vertical":"Apparel"}': 0,
      '{"tld":"example"}': 0,
      '{"tld":"uk"}': 1,
      '{"app":["fc-reviews"]}': 1,
      '{"countryCode":"FR"}': 0,
    });
  });

  it('counts a vanished store again when it is back', async () => {
    await setPresence('beta.shop.example', 'active');
    await expectExact({
      '{}': 2,
      '{"vertical":"Apparel"}': 1,
      '{"countryCode":"FR"}': 1,
      '{"app":["fc-reviews"]}': 2,
      '{"theme":"Impulse"}': 1,
    });
  });
});

describe('filters store_filter_counts does not hold', () => {
  it('are counted live', async () => {
    for (const values of [
      { minVisits: 1 },
      { vertical: 'apparel', countryCode: 'FR', isDropshipper: true },
      { app: ['fc-reviews', 'fc-upsell'] },
      { theme: 'dawn', tld: 'uk' },
      { anyApp: ['fc-reviews'] },
    ] as StoreFilterValues[]) {
      const filter = await resolveStoreFilter(t.services.db.pool, values);
      expect(filterCountKey(filter, new SqlParams()), JSON.stringify(values)).toBeNull();
    }
  });
});
