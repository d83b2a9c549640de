// The crawl bench's alert check (issue 30): before a run, saved-search alerts on the apps the farm's
// stores run (one "runs X" and one "does not run X" per app, the most installed first) are created
// afresh, and the stores each matches are taken with the store search's own SQL; after the run the
// same again. Every store that matches after and did not before was made to match by the run's
// epoch: it must have exactly one match row (missed and spurious count the exceptions; duplicated
// counts rows beyond one per alert and store). Stores that discovery brought into the catalog during
// the run count too: they matched nothing before, since they did not exist.
import type pg from 'pg';
import { SqlParams } from '../../src/platform/database/sql.ts';
import { resolveStoreFilter, storeFilterConditions } from '../../src/stores/store-filter.ts';

export interface AlertFigures {
  alerts: number;
  /** store-alert pairs the run's epoch made newly match */
  expected: number;
  recorded: number;
  missed: number;
  spurious: number;
  duplicated: number;
}

interface RunAlerts {
  alerts: BenchAlert[];
  before: Map<number, Set<number>>;
  /** the newest store id when the alerts were made: any id above it joined during the run */
  newestStoreId: number;
}

interface BenchAlert {
  id: number;
  filter: { app?: string[]; notApp?: string[] };
}

const ACCOUNT = 'bench-crawl-alerts';

async function matching(
  pool: pg.Pool,
  alert: BenchAlert,
  storeIds: readonly number[],
): Promise<Set<number>> {
  const params = new SqlParams();
  const ids = params.add(storeIds);
  const conditions = storeFilterConditions(await resolveStoreFilter(pool, alert.filter), params);
  const { rows } = await pool.query<{ id: number }>(
    `SELECT s.id FROM stores s WHERE s.id = ANY(${ids}::int[]) AND ${conditions.join(' AND ')}`,
    params.values,
  );
  return new Set(rows.map((r) => r.id));
}

export async function createRunAlerts(
  pool: pg.Pool,
  storeIds: readonly number[],
  apps = 10,
): Promise<RunAlerts> {
  const {
    rows: [account],
  } = await pool.query<{ id: number }>(
    `INSERT INTO accounts (external_id, name, plan) VALUES ($1, $1, 'pro')
     ON CONFLICT (external_id) DO UPDATE SET name = excluded.name RETURNING id`,
    [ACCOUNT],
  );
  await pool.query('DELETE FROM alerts WHERE account_id = $1', [account!.id]);
  const { rows: slugs } = await pool.query<{ slug: string }>(
    `SELECT a.slug FROM store_apps sa JOIN apps a ON a.id = sa.app_id WHERE sa.store_id = ANY($1::int[])
      GROUP BY a.slug ORDER BY count(*) DESC, a.slug LIMIT $2`,
    [storeIds, apps],
  );
  const filters = slugs.flatMap(({ slug }) => [{ app: [slug] }, { notApp: [slug] }]);
  const { rows: alerts } = await pool.query<BenchAlert>(
    `INSERT INTO alerts (account_id, name, filter)
     SELECT $1, 'bench ' || n, f FROM unnest($2::jsonb[]) WITH ORDINALITY AS x(f, n) RETURNING id, filter`,
    [account!.id, filters.map((f) => JSON.stringify(f))],
  );
  const before = new Map<number, Set<number>>();
  for (const alert of alerts) before.set(alert.id, await matching(pool, alert, storeIds));
  const {
    rows: [newest],
  } = await pool.query<{ id: number }>('SELECT coalesce(max(id), 0)::int AS id FROM stores');
  return { alerts, before, newestStoreId: newest!.id };
}

export async function alertFigures(
  pool: pg.Pool,
  run: RunAlerts,
  storeIds: readonly number[],
): Promise<AlertFigures> {
  const { rows: joined } = await pool.query<{ id: number }>('SELECT id FROM stores WHERE id > $1', [
    run.newestStoreId,
  ]);
  const ids = [...storeIds, ...joined.map((r) => r.id)];
  const figures: AlertFigures = {
    alerts: run.alerts.length,
    expected: 0,
    recorded: 0,
    missed: 0,
    spurious: 0,
    duplicated: 0,
  };
  for (const alert of run.alerts) {
    const after = await matching(pool, alert, ids);
    const before = run.before.get(alert.id)!;
    const expected = new Set([...after].filter((id) => !before.has(id)));
    const { rows } = await pool.query<{ store_id: number }>(
      'SELECT store_id FROM alert_matches WHERE alert_id = $1',
      [alert.id],
    );
    const recorded = new Set(rows.map((r) => r.store_id));
    figures.expected += expected.size;
    figures.recorded += rows.length;
    figures.duplicated += rows.length - recorded.size;
    figures.missed += [...expected].filter((id) => !recorded.has(id)).length;
    figures.spurious += [...recorded].filter((id) => !expected.has(id)).length;
  }
  return figures;
}
