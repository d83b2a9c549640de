// Insight rows (the insights table): written by probes (sales_spike, restock, price_change) and by
// the ads and storefront-observation parts (ad_new_campaign, app_change); read per watch, newest
// first, and in the account-wide inbox.
import type { Queryable } from '../../platform/database/sql.ts';
import { queryRows } from '../../platform/database/sql.ts';
import type { NewInsight } from './insight-rules.ts';

export interface InsightRecord {
  id: number;
  signalId: number;
  domain: string;
  kind: string;
  title: string;
  body: string;
  data: Record<string, unknown>;
  createdAt: Date;
}

export async function insertInsights(
  db: Queryable,
  watch: { id: number; accountId: number },
  cards: readonly NewInsight[],
  now: Date,
): Promise<void> {
  if (cards.length === 0) return;
  await db.query(
    `INSERT INTO insights (signal_id, account_id, kind, title, body, data, created_at)
     SELECT $1, $2, c.kind, c.title, c.body, c.data, $4 FROM jsonb_to_recordset($3::jsonb) AS c(kind text, title text, body text, data jsonb)`,
    [watch.id, watch.accountId, JSON.stringify(cards), now],
  );
}

const INSIGHT_COLUMNS = `i.id, i.signal_id AS "signalId", s.domain, i.kind, i.title, i.body, i.data, i.created_at AS "createdAt"`;

export interface InsightFilter {
  /** one watch's insights, or (null) every watch of the account */
  signalId: number | null;
  accountId: number;
  kind: string | null;
}

function where(filter: InsightFilter): { sql: string; values: unknown[] } {
  const values: unknown[] = [filter.signalId === null ? filter.accountId : filter.signalId];
  let sql = filter.signalId === null ? 'i.account_id = $1' : 'i.signal_id = $1';
  if (filter.kind) {
    values.push(filter.kind);
    sql += ` AND i.kind = $${values.length}`;
  }
  return { sql, values };
}

/** Insights by id of one account (node lookups), in the order asked; null for another account's or a missing one. */
export async function insightsByIds(
  db: Queryable,
  ids: readonly number[],
  accountId: number,
): Promise<Array<InsightRecord | null>> {
  const rows = await queryRows<InsightRecord>(
    db,
    `SELECT ${INSIGHT_COLUMNS}
       FROM insights i JOIN signals w ON w.id = i.signal_id JOIN stores s ON s.id = w.store_id
      WHERE i.id = ANY($1::int[]) AND i.account_id = $2`,
    [ids.filter((id) => Number.isSafeInteger(id)), accountId],
  );
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.map((id) => byId.get(id) ?? null);
}

export async function listInsights(
  db: Queryable,
  filter: InsightFilter,
  window: { offset: number; limit: number },
): Promise<InsightRecord[]> {
  const { sql, values } = where(filter);
  return queryRows<InsightRecord>(
    db,
    `SELECT ${INSIGHT_COLUMNS}
       FROM insights i JOIN signals w ON w.id = i.signal_id JOIN stores s ON s.id = w.store_id
      WHERE ${sql} ORDER BY i.created_at DESC, i.id DESC LIMIT $${values.length + 1} OFFSET $${values.length + 2}`,
    [...values, window.limit, window.offset],
  );
}

export async function countInsights(
  db: Queryable,
  filter: InsightFilter,
): Promise<{ total: number; exact: boolean }> {
  const { sql, values } = where(filter);
  const [row] = await queryRows<{ n: number }>(
    db,
    `SELECT count(*)::int AS n FROM insights i WHERE ${sql}`,
    values,
  );
  return { total: row?.n ?? 0, exact: true };
}
