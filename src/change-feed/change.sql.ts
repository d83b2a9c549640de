// Change feeds over change_records: diffs between observations (scrapes), newest first.
import type { Window } from '../graphql/pagination.ts';
import { countUpTo, queryRows, SqlParams, type Queryable } from '../platform/database/sql.ts';

export const CHANGE_ENTITIES = ['product', 'app', 'store'] as const;
export type ChangeEntity = (typeof CHANGE_ENTITIES)[number];
export const PRODUCT_CHANGE_TYPES = [
  'price_decrease',
  'price_increase',
  'new_sku',
  'removed_sku',
] as const;

/** What one change record says, as the seed and the scraper write it into change_records. */
export interface ChangeFacts {
  entity: ChangeEntity;
  changeType: string;
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

export function findChanges(pool: Queryable, query: ChangeQuery, { offset, limit }: Window) {
  const params = new SqlParams();
  const where = conditions(query, params);
  return queryRows<ChangeRecordRow>(
    pool,
    `SELECT c.id, c.entity, c.change_type AS "changeType", s.domain, c.subject, c.summary,
            c.old_value AS "oldValue", c.new_value AS "newValue", c.change_pct AS "changePct", c.detected_at AS "detectedAt",
            CASE WHEN c.entity = 'product' THEN s.currency END AS currency
     FROM change_records c JOIN stores s ON s.id = c.store_id ${where}
     ORDER BY c.detected_at DESC, c.id DESC LIMIT ${params.add(limit)} OFFSET ${params.add(offset)}`,
    params.values,
  );
}

export function countChanges(pool: Queryable, query: ChangeQuery) {
  const params = new SqlParams();
  return countUpTo(pool, `change_records c ${conditions(query, params)}`, params.values);
}
