// The app-change filters of the store search: stores observed installing or dropping one app,
// optionally within a window of observation dates, read from store_app_periods (one row per period
// a store was observed running an app: installed_at = the observation that first saw it running,
// uninstalled_at = the one that first saw it without).
import type { SqlParams } from '../platform/database/sql.ts';

/** The filter's app-change values, as StoreFilterValues carries them. */
export interface AppChangeFilterValues {
  /** a store with a period of this app (slug) first seen running in [installedSince, installedBefore) */
  installedApp?: string | null;
  installedSince?: Date | null;
  installedBefore?: Date | null;
  /** a store with a period of this app (slug) first seen without it in [uninstalledSince, uninstalledBefore) */
  uninstalledApp?: string | null;
  uninstalledSince?: Date | null;
  uninstalledBefore?: Date | null;
}

/** Each app-change parameter with its two date bounds. */
export const APP_CHANGE_FILTERS = [
  { app: 'installedApp', since: 'installedSince', before: 'installedBefore' },
  { app: 'uninstalledApp', since: 'uninstalledSince', before: 'uninstalledBefore' },
] as const;

/** The rules a date bound breaks, as bad_request's details.rule says them. */
export const needsApp = (app: string) => `needs ${app}: the app whose observation dates it bounds`;
export const laterThan = (since: string) => `must be later than ${since}`;

export interface AppChangeIssue {
  parameter: string;
  message: string;
}

/**
 * What is wrong with the app-change values, if anything: a date bound without its app, or a
 * window that is empty (since not before before). Shared by GraphQL's StoreFilter and the REST
 * parameters, so both refuse the same requests with the same words.
 */
export function appChangeIssues(filter: AppChangeFilterValues): AppChangeIssue[] {
  const issues: AppChangeIssue[] = [];
  for (const { app, since, before } of APP_CHANGE_FILTERS) {
    for (const bound of [since, before]) {
      if (filter[bound] != null && filter[app] == null)
        issues.push({ parameter: bound, message: needsApp(app) });
    }
    const from = filter[since];
    const to = filter[before];
    if (from != null && to != null && from.getTime() >= to.getTime())
      issues.push({ parameter: before, message: laterThan(since) });
  }
  return issues;
}

/** The app ids of installedApp and uninstalledApp (resolveStoreFilter); undefined when not given. */
export interface AppChangeIds {
  installed?: number;
  uninstalled?: number;
}

const PERIOD_OF_STORE =
  'EXISTS (SELECT 1 FROM store_app_periods p WHERE p.store_id = s.id AND p.app_id = ';

/**
 * The stores a lone app-change condition matches, counted from its periods alone (one group per
 * store) rather than as a semi-join of every store: the count walks the (app_id, store_id) index
 * and stops at its cap. Undefined for any other condition.
 */
export function periodsCountSource(condition: string): string | undefined {
  if (!condition.startsWith(PERIOD_OF_STORE) || !condition.endsWith(')')) return undefined;
  return `store_app_periods p WHERE p.app_id = ${condition.slice(PERIOD_OF_STORE.length, -1)} GROUP BY p.store_id`;
}

/**
 * The app-change filters as semi-joins on store_app_periods, the app a plain number so the planner
 * sees its own statistics: a rare app or a narrow window starts from the (app_id, installed_at) or
 * (app_id, uninstalled_at) index, a common one is probed per store on (store_id, app_id).
 */
export function appChangeConditions(
  filter: AppChangeFilterValues,
  ids: AppChangeIds,
  params: SqlParams,
): string[] {
  const where: string[] = [];
  const period = (appId: number, column: string, since?: Date | null, before?: Date | null) => {
    const bounds = [
      since == null ? `p.${column} IS NOT NULL` : `p.${column} >= ${params.add(since)}`,
      ...(before == null ? [] : [`p.${column} < ${params.add(before)}`]),
    ];
    return `${PERIOD_OF_STORE}${params.add(appId)} AND ${bounds.join(' AND ')})`;
  };
  if (ids.installed !== undefined)
    where.push(
      period(ids.installed, 'installed_at', filter.installedSince, filter.installedBefore),
    );
  if (ids.uninstalled !== undefined)
    where.push(
      period(ids.uninstalled, 'uninstalled_at', filter.uninstalledSince, filter.uninstalledBefore),
    );
  return where;
}
