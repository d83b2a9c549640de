// Types of the app trends: an app's months (Query.appTrend) and a category's ranking (Query.appRanking).
import { builder } from '../graphql/builder.ts';
import type { AppRecord } from './app.sql.ts';
import { AppRef } from './app.type.ts';
import type { AppRankRow, AppTrendMonthRow } from './app-trend.sql.ts';

export interface AppTrendResult {
  app: AppRecord;
  vertical: string | null;
  countryCode: string | null;
  months: AppTrendMonthRow[];
}

const AppTrendMonth = builder.objectRef<AppTrendMonthRow>('AppTrendMonth').implement({
  description:
    'One calendar month (UTC) of an app on the observed catalog. installBase(m) = installBase(m-1) + ' +
    'installs + newlyObserved - uninstalls. Dates are the observations: an install is counted in the month ' +
    'of the observation that first saw the app running, an uninstall in that of the first that saw it gone.',
  fields: (t) => ({
    month: t.field({
      type: 'Date',
      description: "The month's first day (UTC).",
      resolve: (r) => r.month,
    }),
    installs: t.exposeInt('installs', {
      description: 'Stores seen installing the app: an earlier observation saw them without it.',
    }),
    newlyObserved: t.exposeInt('newlyObserved', {
      description:
        'Stores already running the app when first observed this month: they join the install base, not the installs.',
    }),
    uninstalls: t.exposeInt('uninstalls', {
      description: 'Stores first seen without the app after running it.',
    }),
    net: t.exposeInt('net', { description: 'installs - uninstalls.' }),
    installBase: t.exposeInt('installBase', {
      description: "Stores running the app at the month's end (now, for the current month).",
    }),
    observedStores: t.exposeInt('observedStores', {
      description:
        "Catalog stores first seen by the month's end, under the same vertical and country.",
    }),
    share: t.exposeFloat('share', {
      nullable: true,
      description: 'installBase / observedStores, 0 to 1; null while no store is observed.',
    }),
  }),
});

export const AppTrend = builder.objectRef<AppTrendResult>('AppTrend').implement({
  description: "An app's install trend, month by month, oldest first.",
  fields: (t) => ({
    app: t.field({ type: AppRef, description: 'The app the trend is of.', resolve: (r) => r.app }),
    vertical: t.exposeString('vertical', {
      nullable: true,
      description: 'The vertical the counts are narrowed to, as asked; null for every vertical.',
    }),
    countryCode: t.exposeString('countryCode', {
      nullable: true,
      description: 'The country the counts are narrowed to (upper case); null for every country.',
    }),
    months: t.field({
      type: [AppTrendMonth],
      description: 'One entry per month asked, oldest first, ending with the current month.',
      resolve: (r) => r.months,
    }),
  }),
});

const AppRank = builder.objectRef<AppRankRow>('AppRank').implement({
  description: 'An app of a category with its install base and its net change over 90 days.',
  fields: (t) => ({
    app: t.field({ type: AppRef, description: 'The ranked app.', resolve: (r) => r.app }),
    installBase: t.exposeInt('installBase', { description: 'Catalog stores running the app now.' }),
    share: t.exposeFloat('share', {
      nullable: true,
      description: 'installBase / the catalog stores observed, 0 to 1; null on an empty catalog.',
    }),
    installs90d: t.exposeInt('installs90d', {
      description: 'Stores seen installing the app over the last 90 UTC days (today included).',
    }),
    uninstalls90d: t.exposeInt('uninstalls90d', {
      description: 'Stores first seen without it over the same days.',
    }),
    netChange90d: t.exposeInt('netChange90d', { description: 'installs90d - uninstalls90d.' }),
  }),
});

export const AppRankConnection = builder.connectionObject(
  {
    type: AppRank,
    name: 'AppRankConnection',
    description: "A page of a category's app ranking, largest install base first.",
  },
  { name: 'AppRankEdge', description: 'One ranked app, with its cursor.' },
);
