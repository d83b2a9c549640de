// The few plain statements of a seed: the apps catalog, the next free ids, and the bookkeeping
// after the load (install counts, sequences).
import type pg from 'pg';
import type { IdCounters } from './catalog-tables.ts';
import type { Sampler } from './reference-data.ts';

/** Inserts or refreshes the apps of data/apps.json; returns the id of each slug. */
export async function upsertApps(
  client: pg.PoolClient,
  sampler: Sampler,
): Promise<Map<string, number>> {
  const apps = sampler.data.apps.map((a) => ({
    slug: a.slug,
    name: a.name,
    developer: a.developer,
    category: a.category,
    pricing: a.pricing,
    rating: a.rating,
    review_count: a.reviewCount,
    app_store_url: `https://apps.shopify.com/${a.slug}`,
    detection_patterns: a.detectionPatterns,
  }));
  const { rows } = await client.query<{ id: number; slug: string }>(
    `INSERT INTO apps (slug, name, developer, category, pricing, rating, review_count, app_store_url, detection_patterns)
     SELECT slug, name, developer, category, pricing, rating, review_count, app_store_url, detection_patterns
       FROM jsonb_to_recordset($1::jsonb) AS x(slug text, name text, developer text, category text, pricing text,
            rating double precision, review_count int, app_store_url text, detection_patterns text[])
      ORDER BY slug
     ON CONFLICT (slug) DO UPDATE SET
       name = excluded.name, developer = excluded.developer, category = excluded.category,
       pricing = excluded.pricing, rating = excluded.rating, review_count = excluded.review_count,
       app_store_url = excluded.app_store_url, detection_patterns = excluded.detection_patterns
     RETURNING id, slug`,
    [JSON.stringify(apps)],
  );
  return new Map(rows.map((r) => [r.slug, r.id]));
}

/** The first free id of stores, products, change records and app periods (the seed writes ids itself). */
export async function nextIds(
  client: pg.PoolClient,
): Promise<IdCounters & { nextStoreId: number }> {
  const { rows } = await client.query<{
    store: number;
    product: number;
    change: number;
    period: number;
  }>(`
    SELECT (SELECT COALESCE(max(id), 0) + 1 FROM stores) AS store,
           (SELECT COALESCE(max(id), 0) + 1 FROM products) AS product,
           (SELECT COALESCE(max(id), 0) + 1 FROM change_records) AS change,
           (SELECT COALESCE(max(id), 0)::int + 1 FROM store_app_periods) AS period`);
  const r = rows[0]!;
  return {
    nextStoreId: r.store,
    nextProductId: r.product,
    nextChangeId: r.change,
    nextPeriodId: r.period,
  };
}

/** apps.install_count = observed installs; serial sequences past the ids the seed wrote itself */
export async function recountAndAdvance(client: pg.PoolClient): Promise<void> {
  await client.query(`
    UPDATE apps a SET install_count = c.n
      FROM (SELECT a2.id, count(sa.app_id)::int AS n
              FROM apps a2 LEFT JOIN store_apps sa ON sa.app_id = a2.id
             GROUP BY a2.id) c
     WHERE c.id = a.id AND a.install_count <> c.n`);
  for (const table of ['stores', 'products', 'change_records', 'store_app_periods']) {
    await client.query(
      `SELECT setval(pg_get_serial_sequence($1, 'id'), (SELECT COALESCE(max(id), 0) + 1 FROM ${table}), false)`,
      [table],
    );
  }
}
