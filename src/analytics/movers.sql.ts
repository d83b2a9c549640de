// Movers: stores whose modeled visits or revenue moved most over the last 30 days, read from the
// stores' own change columns (partial indexes keep only stores with a measured change).
import type { Window } from '../graphql/pagination.ts';
import { countUpTo, queryRows, SqlParams, type Queryable } from '../platform/database/sql.ts';
import { storeColumns, type StoreRecord } from '../stores/store.sql.ts';

export const MOVER_METRICS = ['visits', 'revenue'] as const;
export type MoverMetric = (typeof MOVER_METRICS)[number];
export const MOVER_DIRECTIONS = ['up', 'down'] as const;
export type MoverDirection = (typeof MOVER_DIRECTIONS)[number];

const COLUMNS: Record<MoverMetric, { pct: string; current: string; history: string }> = {
  visits: { pct: 's.visits_change_pct', current: 's.monthly_visits', history: 'h.monthly_visits' },
  revenue: {
    pct: 's.revenue_change_pct',
    current: 's.revenue_high_usd',
    history: 'h.revenue_high_usd',
  },
};

export interface MoverQuery {
  metric: MoverMetric;
  direction: MoverDirection;
  /** magnitude of the change, percent */
  minPct?: number | null;
  vertical?: string | null;
}

export interface MoverRow {
  store: StoreRecord;
  changePct: number;
  current: number;
  previous: number;
}

function conditions(query: MoverQuery, params: SqlParams): string {
  const { pct } = COLUMNS[query.metric];
  const min = `${params.add(query.minPct ?? 0)}::float8`;
  const where =
    query.direction === 'up'
      ? [`${pct} > 0`, `${pct} >= ${min}`]
      : [`${pct} < 0`, `${pct} <= -${min}`];
  if (query.vertical) where.push(`lower(s.vertical) = lower(${params.add(query.vertical)})`);
  return `WHERE ${where.join(' AND ')}`;
}

/**
 * previous = current / (1 + pct/100). A fall of exactly 100 % leaves nothing to divide, so the
 * daily snapshot from 30 days earlier supplies it: the latest one between 60 and 30 days ago. Both
 * bounds are on the partition column, so only the one or two month partitions of that span are
 * read (the history is partitioned by month).
 */
export async function findMovers(
  pool: Queryable,
  query: MoverQuery,
  { offset, limit }: Window,
): Promise<MoverRow[]> {
  const { pct, current, history } = COLUMNS[query.metric];
  const params = new SqlParams();
  const where = conditions(query, params);
  const rows = await queryRows<
    StoreRecord & { __pct: number; __current: number; __previous: number | null }
  >(
    pool,
    `SELECT ${storeColumns('s')}, ${pct} AS "__pct", ${current}::float8 AS "__current",
            CASE WHEN ${pct} > -100 THEN round(${current} / (1 + ${pct} / 100))::float8
                 ELSE (SELECT ${history}::float8 FROM store_daily_snapshots h
                       WHERE h.store_id = s.id AND h.day <= current_date - 30 AND h.day >= current_date - 59 ORDER BY h.day DESC LIMIT 1)
            END AS "__previous"
     FROM stores s ${where}
     ORDER BY ${pct} ${query.direction === 'up' ? 'DESC' : 'ASC'}, s.id
     LIMIT ${params.add(limit)} OFFSET ${params.add(offset)}`,
    params.values,
  );
  return rows.map(({ __pct, __current, __previous, ...store }) => ({
    store,
    changePct: __pct,
    current: __current,
    previous: __previous ?? 0,
  }));
}

export function countMovers(pool: Queryable, query: MoverQuery) {
  const params = new SqlParams();
  return countUpTo(pool, `stores s ${conditions(query, params)}`, params.values);
}
