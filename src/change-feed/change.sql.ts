// Change feeds over change_records: diffs between observations (scrapes), newest first.
import type { Window } from '../graphql/pagination.ts';
import { orderSql, type OrderDirection } from '../graphql/order.ts';
import { countUpTo, queryRows, SqlParams, type Queryable } from '../platform/database/sql.ts';

export const CHANGE_ENTITIES = ['product', 'app', 'store'] as const;
export type ChangeEntity = (typeof CHANGE_ENTITIES)[number];
export const PRODUCT_CHANGE_TYPES = [
  'price_decrease',
  'price_increase',
  'new_sku',
  'removed_sku',
] as const;
export const APP_CHANGE_TYPES = ['app_installed', 'app_uninstalled'] as const;
export const STORE_CHANGE_TYPES = [
  'theme_changed',
  'revenue_band_changed',
  'domain_changed',
] as const;
/** Every change type the observers and the seed write, by entity: the closed set of Change.changeType. */
export const CHANGE_TYPES = [
  ...PRODUCT_CHANGE_TYPES,
  ...APP_CHANGE_TYPES,
  ...STORE_CHANGE_TYPES,
] as const;
export type ChangeType = (typeof CHANGE_TYPES)[number];

export const CHANGE_TYPE_DESCRIPTIONS: Record<ChangeType, string> = {
  price_decrease: 'product: its price went down (changePct negative).',
  price_increase: 'product: its price went up (changePct positive).',
  new_sku: 'product: it appeared in the catalog.',
  removed_sku: 'product: it left the catalog.',
  app_installed: 'app: first seen running on the store.',
  app_uninstalled: 'app: first seen no longer running.',
  theme_changed: 'store: the storefront theme changed (oldValue, newValue: theme names).',
  revenue_band_changed:
    'store: the modeled monthly revenue band moved (oldValue, newValue: "low-high" USD per month; changePct: its 30-day change, percent).',
  domain_changed: 'store: the storefront moved to a new host (oldValue, newValue: domains).',
};

/** What one change record says, as the seed and the scraper write it into change_records. */
export interface ChangeFacts {
  entity: ChangeEntity;
  changeType: ChangeType;
  subject: string | null;
  summary: string;
  oldValue: string | null;
  newValue: string | null;
  changePct: number | null;
}

export interface ChangeRecordRow extends ChangeFacts {
  id: number;
  /** the store's currency for a product change (its values are prices); null for app and store changes */
  currency: string | null;
  domain: string;
  detectedAt: Date;
}

export interface ChangeQuery {
  entity?: ChangeEntity | null;
  changeTypes?: readonly string[] | null;
  /** canonical domain */
  domain?: string | null;
  since?: Date | null;
  /** |change_pct| at least this (percent); rows without a change_pct drop out */
  minChangePct?: number | null;
  /** by detected_at; default desc (newest first) */
  direction?: OrderDirection;
}

function conditions(query: ChangeQuery, params: SqlParams): string {
  const where: string[] = [];
  if (query.entity) where.push(`c.entity = ${params.add(query.entity)}`);
  if (query.changeTypes)
    where.push(`c.change_type = ANY(${params.add(query.changeTypes)}::text[])`);
  if (query.domain)
    where.push(`c.store_id = (SELECT id FROM stores WHERE domain = ${params.add(query.domain)})`);
  if (query.since) where.push(`c.detected_at >= ${params.add(query.since)}`);
  if (query.minChangePct != null)
    where.push(`abs(c.change_pct) >= ${params.add(query.minChangePct)}`);
  return where.length ? `WHERE ${where.join(' AND ')}` : '';
}

const CHANGE_COLUMNS = `c.id, c.entity, c.change_type AS "changeType", s.domain, c.subject, c.summary,
            c.old_value AS "oldValue", c.new_value AS "newValue", c.change_pct AS "changePct", c.detected_at AS "detectedAt",
            CASE WHEN c.entity = 'product' THEN s.currency END AS currency`;

export function findChanges(pool: Queryable, query: ChangeQuery, { offset, limit }: Window) {
  const params = new SqlParams();
  const where = conditions(query, params);
  return queryRows<ChangeRecordRow>(
    pool,
    `SELECT ${CHANGE_COLUMNS}
     FROM change_records c JOIN stores s ON s.id = c.store_id ${where}
     ORDER BY ${orderSql('c.detected_at DESC, c.id DESC', query.direction ?? 'desc')} LIMIT ${params.add(limit)} OFFSET ${params.add(offset)}`,
    params.values,
  );
}

export function countChanges(pool: Queryable, query: ChangeQuery) {
  const params = new SqlParams();
  return countUpTo(pool, `change_records c ${conditions(query, params)}`, params.values);
}

/** Change records by id (node lookups), in the order asked; null for an id with no record. */
export async function changesByIds(
  pool: Queryable,
  ids: readonly number[],
): Promise<Array<ChangeRecordRow | null>> {
  const wanted = ids.filter((id) => Number.isSafeInteger(id));
  const rows = wanted.length
    ? await queryRows<ChangeRecordRow>(
        pool,
        `SELECT ${CHANGE_COLUMNS} FROM change_records c JOIN stores s ON s.id = c.store_id
          WHERE c.id = ANY($1::int[])`,
        [wanted],
      )
    : [];
  const byId = new Map(rows.map((row) => [Number(row.id), row]));
  return ids.map((id) => byId.get(id) ?? null);
}
