// Market analytics over the whole catalog (GET /v1/analytics/*). Breakdowns by vertical and by
// country are bounded lists (tens of verticals, at most ~250 countries), read whole and paged in
// memory; store-level lists (movers) are paged in SQL. The whole-catalog figures (totals, the
// vertical breakdown, the country breakdown without a vertical) come from the pre-computed rollups
// while they are fresh (src/stores/rollups/), from the live query otherwise.
import { queryRows, SqlParams, type Queryable } from '../platform/database/sql.ts';
import { readFreshRollups } from '../stores/rollups/store-rollups.ts';

export interface VerticalStatRow {
  vertical: string;
  stores: number;
  monthlyRevenueUsd: number;
  monthlyVisits: number;
  adSpendUsd: number;
}

export interface CountryStatRow {
  countryCode: string;
  stores: number;
  monthlyRevenueUsd: number;
  monthlyVisits: number;
}

/** Sums of the modeled figures per vertical, most stores first. */
export async function verticalStats(pool: Queryable): Promise<VerticalStatRow[]> {
  const rolledUp = await readFreshRollups<VerticalStatRow>(
    pool,
    `r.vertical, r.stores, r.revenue_high_sum AS "monthlyRevenueUsd", r.visits_sum AS "monthlyVisits", r.ad_spend_sum AS "adSpendUsd"`,
    `r.dimensions = 'vertical' AND r.vertical IS NOT NULL`,
    `r.stores DESC, r.revenue_high_sum DESC, r.vertical`,
  );
  if (rolledUp) return rolledUp;
  return queryRows<VerticalStatRow>(
    pool,
    `SELECT s.vertical, count(*)::int AS stores, sum(s.revenue_high_usd)::float8 AS "monthlyRevenueUsd",
            sum(s.monthly_visits)::float8 AS "monthlyVisits", sum(s.ad_spend_usd)::float8 AS "adSpendUsd"
     FROM stores s WHERE s.vertical IS NOT NULL
     GROUP BY s.vertical ORDER BY stores DESC, "monthlyRevenueUsd" DESC, s.vertical`,
  );
}

/** Market size per country, of the whole catalog or inside one vertical (case-insensitive). */
export async function countryStats(
  pool: Queryable,
  vertical?: string | null,
): Promise<CountryStatRow[]> {
  if (!vertical) {
    const rolledUp = await readFreshRollups<CountryStatRow>(
      pool,
      `r.country_code AS "countryCode", r.stores, r.revenue_high_sum AS "monthlyRevenueUsd", r.visits_sum AS "monthlyVisits"`,
      `r.dimensions = 'country' AND r.country_code IS NOT NULL`,
      `r.stores DESC, r.revenue_high_sum DESC, r.country_code`,
    );
    if (rolledUp) return rolledUp;
  }
  const params = new SqlParams();
  const inVertical = vertical ? `AND lower(s.vertical) = lower(${params.add(vertical)})` : '';
  return queryRows<CountryStatRow>(
    pool,
    `SELECT s.country_code::text AS "countryCode", count(*)::int AS stores,
            sum(s.revenue_high_usd)::float8 AS "monthlyRevenueUsd", sum(s.monthly_visits)::float8 AS "monthlyVisits"
     FROM stores s WHERE s.country_code IS NOT NULL ${inVertical}
     GROUP BY s.country_code ORDER BY stores DESC, "monthlyRevenueUsd" DESC, s.country_code`,
    params.values,
  );
}

export interface CatalogTotals {
  stores: number;
  dropshippers: number;
  storesWithTraffic: number;
  appsTracked: number;
  averageMonthlyVisits: number;
  averageRevenueHighUsd: number;
  averageServiceRating: number;
  /** when the figures were computed, when they come from the rollups (live figures: now) */
  computedAt?: Date;
}

export async function catalogTotals(pool: Queryable): Promise<CatalogTotals> {
  const [rolledUp] =
    (await readFreshRollups<CatalogTotals>(
      pool,
      `r.stores, r.dropshippers, r.stores_with_traffic AS "storesWithTraffic",
       (SELECT count(*)::int FROM apps) AS "appsTracked",
       coalesce(r.visits_mean, 0) AS "averageMonthlyVisits",
       coalesce(r.revenue_high_mean, 0) AS "averageRevenueHighUsd",
       coalesce(r.service_rating_mean, 0) AS "averageServiceRating",
       (SELECT refreshed_at FROM store_rollup_refreshes) AS "computedAt"`,
      `r.dimensions = ''`,
      'r.id',
    )) ?? [];
  if (rolledUp) return rolledUp;
  const [row] = await queryRows<CatalogTotals>(
    pool,
    `SELECT count(*)::int AS stores,
            count(*) FILTER (WHERE s.is_dropshipper)::int AS dropshippers,
            count(*) FILTER (WHERE EXISTS (SELECT 1 FROM traffic_monthly t WHERE t.store_id = s.id))::int AS "storesWithTraffic",
            (SELECT count(*)::int FROM apps) AS "appsTracked",
            coalesce(avg(s.monthly_visits), 0)::float8 AS "averageMonthlyVisits",
            coalesce(avg(s.revenue_high_usd), 0)::float8 AS "averageRevenueHighUsd",
            coalesce(avg(s.service_rating), 0)::float8 AS "averageServiceRating"
     FROM stores s`,
  );
  return row!;
}

/**
 * Products are the largest table (tens of millions of rows at full scale): past a million rows the
 * planner's statistics (pg_class.reltuples, kept by autovacuum's ANALYZE) stand in for a count
 * that would scan the whole table; below that the count is exact.
 */
export const EXACT_PRODUCT_COUNT_BELOW = 1_000_000;

export async function productsTracked(pool: Queryable): Promise<number> {
  const [stats] = await queryRows<{ estimate: number }>(
    pool,
    `SELECT reltuples::float8 AS estimate FROM pg_class WHERE oid = 'products'::regclass`,
  );
  const estimate = stats?.estimate ?? -1;
  if (estimate >= EXACT_PRODUCT_COUNT_BELOW) return Math.round(estimate);
  const [counted] = await queryRows<{ n: number }>(pool, 'SELECT count(*)::int AS n FROM products');
  return counted?.n ?? 0;
}
