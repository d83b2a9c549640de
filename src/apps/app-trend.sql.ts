// Reads of the app trend rollups (app-trend-rollups.ts): an app's months (GET /v1/apps/{slug}/trend)
// and a category's apps by install base (GET /v1/analytics/apps). A few dozen rollup rows per app,
// never store_app_periods. An install base is the running sum of an app's months from its first,
// so base(m) = base(m-1) + installs(m) + newlyObserved(m) - uninstalls(m) holds by construction.
import { queryRows, type Queryable } from '../platform/database/sql.ts';
import { APP_COLUMNS, type AppRecord } from './app.sql.ts';

export const TREND_MAX_MONTHS = 24;
export const TREND_DEFAULT_MONTHS = 12;
/** The window of the ranking's net change: this many UTC days, today included. */
export const NET_CHANGE_DAYS = 90;

export interface AppTrendMonthRow {
  /** the month's first day, YYYY-MM-DD (UTC) */
  month: string;
  installs: number;
  newlyObserved: number;
  uninstalls: number;
  /** installs - uninstalls */
  net: number;
  /** stores running the app at the month's end (now, for the current month) */
  installBase: number;
  /** catalog stores first seen by the month's end, same vertical and country */
  observedStores: number;
  /** installBase / observedStores; null while no store is observed */
  share: number | null;
}

const TREND_ROWS = `SELECT 'app' AS kind, to_char(month, 'YYYY-MM-DD') AS month, installs, newly_observed AS "newlyObserved", uninstalls
    FROM app_trend_months WHERE app_id = $1 AND vertical = lower($2) AND country_code = upper($3)
  UNION ALL
  SELECT 'stores', to_char(month, 'YYYY-MM-DD'), stores, 0, 0
    FROM store_observed_months WHERE vertical = lower($2) AND country_code = upper($3)`;

interface TrendRow {
  kind: 'app' | 'stores';
  month: string;
  installs: number;
  newlyObserved: number;
  uninstalls: number;
}

/** The first days of the `count` calendar months (UTC) ending with the one of `now`, oldest first. */
export function monthsEnding(now: Date, count: number): string[] {
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth();
  return Array.from({ length: count }, (_, i) =>
    new Date(Date.UTC(year, month - (count - 1) + i, 1)).toISOString().slice(0, 10),
  );
}

/** One app's last `months` months, oldest first; vertical and countryCode narrow both counts. */
export async function readAppTrend(
  db: Queryable,
  appId: number,
  filter: { months: number; vertical?: string | null; countryCode?: string | null },
  now: Date = new Date(),
): Promise<AppTrendMonthRow[]> {
  const rows = await queryRows<TrendRow>(
    db,
    TREND_ROWS,
    [appId, filter.vertical ?? '', filter.countryCode ?? ''],
    'app-trend-rows',
  );
  const app = new Map<string, TrendRow>();
  const stores = new Map<string, number>();
  for (const row of rows) {
    if (row.kind === 'app') app.set(row.month, row);
    else stores.set(row.month, row.installs);
  }
  const window = monthsEnding(now, filter.months);
  // the sums of the months before the window open it
  let installBase = 0;
  let observedStores = 0;
  for (const row of app.values())
    if (row.month < window[0]!) installBase += row.installs + row.newlyObserved - row.uninstalls;
  for (const [month, count] of stores) if (month < window[0]!) observedStores += count;
  return window.map((month) => {
    const row = app.get(month);
    const installs = row?.installs ?? 0;
    const newlyObserved = row?.newlyObserved ?? 0;
    const uninstalls = row?.uninstalls ?? 0;
    installBase += installs + newlyObserved - uninstalls;
    observedStores += stores.get(month) ?? 0;
    return {
      month,
      installs,
      newlyObserved,
      uninstalls,
      net: installs - uninstalls,
      installBase,
      observedStores,
      share: observedStores > 0 ? installBase / observedStores : null,
    };
  });
}

export interface AppRankRow {
  app: AppRecord;
  installBase: number;
  share: number | null;
  installs90d: number;
  uninstalls90d: number;
  netChange90d: number;
}

const RANKING = `SELECT ${APP_COLUMNS}, COALESCE(b.base, 0)::int AS "installBase",
       COALESCE(n.installs, 0)::int AS "installs90d", COALESCE(n.uninstalls, 0)::int AS "uninstalls90d",
       (SELECT sum(stores) FROM store_observed_months WHERE vertical = '' AND country_code = '')::int AS "observedStores"
  FROM apps a
  LEFT JOIN LATERAL (SELECT sum(t.installs + t.newly_observed - t.uninstalls) AS base
                       FROM app_trend_months t WHERE t.app_id = a.id AND t.vertical = '' AND t.country_code = '') b ON true
  LEFT JOIN LATERAL (SELECT sum(d.installs) AS installs, sum(d.uninstalls) AS uninstalls
                       FROM app_install_days d
                      WHERE d.app_id = a.id AND d.day > (now() AT TIME ZONE 'UTC')::date - ${NET_CHANGE_DAYS}) n ON true
 WHERE lower(a.category) = lower($1)
 ORDER BY "installBase" DESC, a.name, a.id`;

/** The apps of one category (case-insensitive; none for an unknown one), largest install base first. */
export async function readAppRanking(db: Queryable, category: string): Promise<AppRankRow[]> {
  const rows = await queryRows<
    AppRecord & {
      installBase: number;
      installs90d: number;
      uninstalls90d: number;
      observedStores: number | null;
    }
  >(db, RANKING, [category], 'app-ranking');
  return rows.map(({ installBase, installs90d, uninstalls90d, observedStores, ...app }) => ({
    app,
    installBase,
    share: observedStores ? installBase / observedStores : null,
    installs90d,
    uninstalls90d,
    netChange90d: installs90d - uninstalls90d,
  }));
}
