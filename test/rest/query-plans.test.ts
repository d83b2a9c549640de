// The hot routes read through the indexes meant for them. The catalog fixture alone is 12 stores, on
// which the planner rightly reads whole tables; so 20,000 filler stores (3 products each, each
// running a filler app, one in a hundred klaviyo too) are added under names no fixture request
// matches, the tables analysed, and every statement a request sent is EXPLAINed as the service
// planned it: the index meant for the route must be in the plan. A lost index, or a predicate
// written so that no index applies, is not. (Text searches follow their own suite's plans and are
// not pinned here.)
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../../app/server.ts';
import { rebuildAppTrendRollups } from '../../src/apps/app-trend-rollups.ts';
import { loadCatalogFixture } from '../support/catalog-fixture.ts';
import { nodesOf, type PlanNode } from '../support/plan-nodes.ts';
import { createTestServices, type CatalogTestServices } from '../support/test-services.ts';

const FILLER_STORES = 20_000;

let t: CatalogTestServices;
let app: FastifyInstance;
let explainer: pg.Client;

beforeAll(async () => {
  t = await createTestServices({ countStatements: true });
  await loadCatalogFixture(t.services.db.pool, t.services.legacy);
  explainer = new pg.Client({ connectionString: t.services.db.url });
  await explainer.connect();
  await explainer.query(`
    INSERT INTO stores (domain, name, country_code, vertical, monthly_visits, revenue_high_usd)
    SELECT 'filler-' || g || '.example', 'Filler ' || md5(g::text), (ARRAY['US', 'GB', 'DE', 'FR', 'CA'])[1 + g % 5],
           (ARRAY['Apparel', 'Beauty', 'Home', 'Toys'])[1 + g % 4], g % 5000, g % 9000
      FROM generate_series(1, ${FILLER_STORES}) g`);
  // and a small country (40 stores), first seen on days of the last year, rated, of a small
  // industry and category
  await explainer.query(`
    INSERT INTO stores (domain, name, country_code, vertical, industry, category, monthly_visits, revenue_high_usd,
                        service_rating, first_seen_at)
    SELECT 'filler-nz-' || g || '.example', 'Filler NZ ' || g, 'NZ', 'Home', 'Crafts', 'Prayer Beads', g * 10, g * 20,
           (g * 37) % 101, now() - g * interval '9 days'
      FROM generate_series(1, 40) g`);
  await explainer.query(`
    INSERT INTO products (store_id, handle, title, price, is_best_seller)
    SELECT s.id, 'item-' || k, 'Item ' || md5(s.id || '-' || k), (s.id % 100) + k, k = 1
      FROM stores s CROSS JOIN generate_series(1, 3) k WHERE s.domain LIKE 'filler-%'`);
  // and one store of 40 products (5 best-sellers): more than its store read carries
  await explainer.query(
    `INSERT INTO stores (domain, name) VALUES ('filler-big.example', 'Filler Big')`,
  );
  await explainer.query(`
    INSERT INTO products (store_id, handle, title, price, is_best_seller, best_seller_rank)
    SELECT s.id, 'big-' || k, 'Big ' || k, k, k <= 5, CASE WHEN k <= 5 THEN 6 - k END
      FROM stores s CROSS JOIN generate_series(1, 40) k WHERE s.domain = 'filler-big.example'`);
  // every filler store runs one filler app, and one in a hundred klaviyo too
  await explainer.query(`INSERT INTO apps (slug, name) VALUES ('filler-app', 'Filler App')`);
  await explainer.query(`
    INSERT INTO store_apps (store_id, app_id)
    SELECT s.id, a.id FROM stores s JOIN apps a ON a.slug = 'filler-app' OR (a.slug = 'klaviyo' AND s.id % 100 = 0)
     WHERE s.domain LIKE 'filler-%'`);
  // each filler install is a period that began on a day of the last ~3 years; one klaviyo store in
  // five dropped it since
  await explainer.query(`
    INSERT INTO store_app_periods (store_id, app_id, installed_at, uninstalled_at, seen_installing)
    SELECT sa.store_id, sa.app_id, now() - (sa.store_id % 1000) * interval '1 day',
           CASE WHEN a.slug = 'klaviyo' AND sa.store_id % 5 = 0 THEN now() - (sa.store_id % 100) * interval '1 day' END, true
      FROM store_apps sa JOIN apps a ON a.id = sa.app_id JOIN stores s ON s.id = sa.store_id
     WHERE s.domain LIKE 'filler-%'`);
  await rebuildAppTrendRollups(explainer);
  await explainer.query(
    'ANALYZE stores, products, store_apps, store_app_periods, apps, app_trend_months, store_observed_months',
  );
  app = await buildServer(t.services);
});

afterAll(async () => {
  await explainer?.end();
  await app?.close();
  await t?.close();
});

/** The plan nodes of every statement `url` sent that reads `table`, EXPLAINed as a large catalog would be planned. */
async function plansOf(
  url: string,
  table: string,
  graphqlBody?: { query: string; variables?: Record<string, unknown> },
): Promise<PlanNode[][]> {
  t.counter!.reset();
  const res = await app.inject(
    graphqlBody ? { method: 'POST', url, payload: graphqlBody } : { method: 'GET', url },
  );
  expect(res.statusCode, res.body).toBe(200);
  const plans: PlanNode[][] = [];
  for (const { text, values } of t.counter!.sent) {
    if (!new RegExp(`\\b${table}\\b`).test(text) || !/^\s*(SELECT|WITH)\b/i.test(text)) continue;
    const { rows } = await explainer.query(`EXPLAIN (FORMAT JSON) ${text}`, values);
    plans.push(nodesOf(rows[0]['QUERY PLAN'][0].Plan));
  }
  expect(plans.length, `no statement of ${url} read ${table}`).toBeGreaterThan(0);
  return plans;
}

/** every index a plan reads (a bitmap index scan names its index, its heap scan the table) */
const indexesUsed = (plans: PlanNode[][]) =>
  new Set(plans.flat().flatMap((n) => (n['Index Name'] ? [n['Index Name']] : [])));
describe('the hot routes read through their indexes', () => {
  it.each([
    // the store search's btree on domain (text_pattern_ops, for typed domain prefixes) serves equality as well
    [
      'a store profile',
      '/v1/stores/acme-apparel.com',
      'stores',
      ['stores_domain_key', 'stores_domain_pattern_idx'],
    ],
    // and its covering index on (monthly_visits DESC, id) is the visits order with its id tie-break
    [
      'the busiest stores',
      '/v1/stores?sort=visits&limit=5',
      'stores',
      ['stores_monthly_visits_idx', 'stores_visits_search_terms_idx'],
    ],
    [
      'a country filter in visits order',
      '/v1/stores?countryCode=US&sort=visits&limit=5',
      'stores',
      ['stores_country_code_monthly_visits_idx'],
    ],
    // revenue is the default order; over the revenue index alone a smaller country's page was
    // filtered out of every larger country's stores before it (1,600 rows for a 16,000-store
    // country on the 1M catalog)
    // rating is a sort of its own: without an index of it the first page sorted every store
    [
      'the best-rated stores',
      '/v1/stores?sort=rating&limit=5',
      'stores',
      ['stores_service_rating_idx'],
    ],
    [
      'a country filter in the default order',
      '/v1/stores?countryCode=DE&limit=5',
      'stores',
      ['stores_country_code_revenue_idx'],
    ],
    // and the newest stores of a country: over the index of first sighting alone a smaller
    // country's page was filtered out of the others' newest stores (124 ms for 16,000 stores of 1M)
    // and its best-rated: over the rating index alone a country's page was filtered out of every
    // other country's best-rated stores (67 ms for a small country of 1M)
    [
      "a small country's best-rated stores",
      '/v1/stores?countryCode=NZ&sort=rating&limit=5',
      'stores',
      ['stores_country_code_service_rating_idx'],
    ],
    [
      "a small country's newest stores",
      '/v1/stores?countryCode=NZ&sort=newest&limit=5',
      'stores',
      ['stores_country_code_first_seen_at_idx'],
    ],
    // a small industry's or category's newest and best-rated stores: over the index of first
    // sighting or of rating alone, its page was filtered out of every other's (95 to 147 ms for a
    // category of 600 stores among 1M)
    [
      "a small industry's newest stores",
      '/v1/stores?industry=crafts&sort=newest&limit=5',
      'stores',
      ['stores_lower_industry_first_seen_at_idx'],
    ],
    [
      "a small category's newest stores",
      '/v1/stores?category=Prayer%20Beads&sort=newest&limit=5',
      'stores',
      ['stores_lower_category_first_seen_at_idx'],
    ],
    [
      "a small industry's best-rated stores",
      '/v1/stores?industry=Crafts&sort=rating&limit=5',
      'stores',
      ['stores_lower_industry_service_rating_idx'],
    ],
    [
      "a small category's best-rated stores",
      '/v1/stores?category=prayer%20beads&sort=rating&limit=5',
      'stores',
      ['stores_lower_category_service_rating_idx'],
    ],
    [
      'an industry filter in the default order',
      '/v1/stores?industry=Fashion&limit=5',
      'stores',
      ['stores_lower_industry_revenue_idx'],
    ],
    [
      'a category filter in the default order',
      '/v1/stores?category=Jewelry&limit=5',
      'stores',
      ['stores_lower_category_revenue_idx'],
    ],
    // (a store of fewer products than its store read carries answers from those)
    [
      "a store's best-sellers",
      '/v1/stores/filler-big.example/products?isBestSeller=true',
      'products',
      ['products_best_sellers_idx'],
    ],
    // a store's products in their order: over (store, handle) every product of the store was read
    // and sorted, for the store read's first products and for each page
    [
      "a store's products",
      '/v1/stores/filler-big.example/products?limit=30',
      'products',
      ['products_store_order_idx'],
    ],
    [
      "an app's stores",
      '/v1/apps/klaviyo/stores',
      'store_apps',
      ['store_apps_app_id_store_id_idx'],
    ],
    // a rare app's installs in a window: from an index led by the app, not a probe of every store
    [
      "an app's recent installs",
      '/v1/stores?installedApp=klaviyo&installedSince=2026-01-01&limit=5',
      'store_app_periods',
      ['store_app_periods_installed_idx', 'store_app_periods_app_store_idx'],
    ],
    [
      "an app's uninstalls",
      '/v1/stores?uninstalledApp=klaviyo&limit=5',
      'store_app_periods',
      ['store_app_periods_uninstalled_idx', 'store_app_periods_app_store_idx'],
    ],
    [
      "an app's trend",
      '/v1/apps/klaviyo/trend?months=12',
      'app_trend_months',
      ['app_trend_months_pkey'],
    ],
    // the snapshots are partitioned by month: each month's primary key (store_id, day)
    [
      "a store's daily history",
      '/v1/stores/acme-apparel.com/history?limit=30',
      'store_daily_snapshots',
      [/^store_daily_snapshots_p\d{6}_pkey$/],
    ],
  ])('%s (%s) reads %s through %s', async (_what, url, table, intended) => {
    const used = [...indexesUsed(await plansOf(url, table as string))];
    const meant = (name: string) =>
      (intended as Array<string | RegExp>).some((index) =>
        typeof index === 'string' ? index === name : index.test(name),
      );
    expect(used.some(meant), `used: ${used.join(', ') || 'none'}`).toBe(true);
  });

  // prices tie often (the filler's 60,000 products share 100 prices): over an index of price alone
  // each tie was read whole and sorted by id before the first row came out
  const PRODUCTS_BY_PRICE = `query($filter: ProductFilter!) { products(filter: $filter, first: 5, orderBy: { field: PRICE, direction: DESC }) {
    nodes { handle price } } }`;
  it.each([
    [
      'a price range, cheapest first',
      '/v1/products?priceMin=20&priceMax=40&limit=5',
      'products_price_id_idx',
      undefined,
    ],
    [
      'best sellers, dearest first',
      'POST /graphql, orderBy PRICE DESC',
      'products_best_seller_price_id_idx',
      { query: PRODUCTS_BY_PRICE, variables: { filter: { isBestSeller: true } } },
    ],
  ])(
    '%s (%s) reads products in price order through %s, with no sort',
    async (_what, request, index, body) => {
      const plans = await plansOf(body ? '/graphql' : request, 'products', body);
      // the page's statement: the one that reads rows (the count reads the same index, without a join)
      const page = plans.find((plan) => plan.some((n) => n['Relation Name'] === 'stores'));
      expect(page, 'no page statement').toBeDefined();
      const names = page!.map((n) => `${n['Node Type']} ${n['Index Name'] ?? ''}`.trim());
      expect(names.join(' | ')).toContain(index);
      expect(
        names.filter((n) => /Sort/.test(n)),
        names.join(' | '),
      ).toEqual([]);
    },
  );
});
