// Types of the market analytics: per-vertical and per-country sums, the coverage overview, movers.
import { builder } from '../graphql/builder.ts';
import { upperCaseValues } from '../graphql/enums.ts';
import { ROLLUP_MAX_AGE_MINUTES, ROLLUP_REFRESH_MINUTES } from '../stores/rollups/store-rollups.ts';
import { StoreRef } from '../stores/store.ref.ts';
import type { CatalogTotals, CountryStatRow, VerticalStatRow } from './analytics.sql.ts';
import { MOVER_DIRECTIONS, MOVER_METRICS, type MoverMetric, type MoverRow } from './movers.sql.ts';

export const VerticalStat = builder.objectRef<VerticalStatRow>('VerticalStat').implement({
  description: 'Stores of one vertical and the sums of their modeled figures.',
  fields: (t) => ({
    vertical: t.exposeString('vertical', {
      description: 'The vertical, as Store.vertical and the vertical filter spell it.',
    }),
    stores: t.exposeInt('stores', { description: 'Catalog stores in the vertical.' }),
    monthlyRevenueUsdHigh: t.exposeFloat('monthlyRevenueUsd', {
      description: "Sum of the revenue bands' high ends, USD (modeled).",
    }),
    monthlyRevenueUsd: t.exposeFloat('monthlyRevenueUsd', {
      description: "Sum of the revenue bands' high ends, USD (modeled).",
      deprecationReason:
        'Use monthlyRevenueUsdHigh: monthlyRevenueUsd names a RevenueBand {low, high} on Store and HistoryPoint.',
    }),
    monthlyVisits: t.exposeFloat('monthlyVisits', {
      description: 'Sum of modeled monthly visits.',
    }),
    adSpendUsd: t.exposeFloat('adSpendUsd', {
      description: 'Sum of modeled monthly ad spend, USD.',
    }),
  }),
});

export const CountryStat = builder.objectRef<CountryStatRow>('CountryStat').implement({
  description: 'Stores of one country and the sums of their modeled figures.',
  fields: (t) => ({
    countryCode: t.exposeString('countryCode', {
      description: 'ISO 3166-1 alpha-2 country code, upper case (the countryCode filter takes it).',
    }),
    stores: t.exposeInt('stores', { description: 'Catalog stores in the country.' }),
    monthlyRevenueUsdHigh: t.exposeFloat('monthlyRevenueUsd', {
      description: "Sum of the revenue bands' high ends, USD (modeled).",
    }),
    monthlyRevenueUsd: t.exposeFloat('monthlyRevenueUsd', {
      description: "Sum of the revenue bands' high ends, USD (modeled).",
      deprecationReason:
        'Use monthlyRevenueUsdHigh: monthlyRevenueUsd names a RevenueBand {low, high} on Store and HistoryPoint.',
    }),
    monthlyVisits: t.exposeFloat('monthlyVisits', {
      description: 'Sum of modeled monthly visits.',
    }),
  }),
});

export const VerticalStatConnection = builder.connectionObject(
  {
    type: VerticalStat,
    name: 'VerticalStatConnection',
    description: 'A page of verticals with their store counts and summed figures.',
  },
  { name: 'VerticalStatEdge', description: 'One vertical, with its cursor.' },
);
export const CountryStatConnection = builder.connectionObject(
  {
    type: CountryStat,
    name: 'CountryStatConnection',
    description: 'A page of countries with their store counts and summed figures.',
  },
  { name: 'CountryStatEdge', description: 'One country, with its cursor.' },
);

export interface Overview {
  totals: CatalogTotals;
  productsTracked: number;
  topVerticals: VerticalStatRow[];
  topCountries: CountryStatRow[];
  generatedAt: Date;
}

const OverviewAverages = builder.objectRef<CatalogTotals>('OverviewAverages').implement({
  description: 'Catalog-wide means of the modeled figures.',
  fields: (t) => ({
    monthlyVisits: t.exposeFloat('averageMonthlyVisits', {
      description: 'Mean modeled monthly visits per store.',
    }),
    monthlyRevenueUsdHigh: t.exposeFloat('averageRevenueHighUsd', {
      description: "Mean of the revenue bands' high ends, USD (modeled).",
    }),
    serviceRating: t.exposeFloat('averageServiceRating', {
      description: 'Mean service rating, 0 to 100.',
    }),
  }),
});

export const AnalyticsOverview = builder.objectRef<Overview>('AnalyticsOverview').implement({
  description:
    'Coverage of the catalog: counts, averages, and the five largest verticals and countries by store count.',
  fields: (t) => ({
    stores: t.int({ description: 'Stores in the catalog.', resolve: (o) => o.totals.stores }),
    productsTracked: t.exposeInt('productsTracked', {
      description: 'Exact below one million, the planner estimate above.',
    }),
    appsTracked: t.int({
      description: 'Apps in the app catalog (the ones Query.apps lists).',
      resolve: (o) => o.totals.appsTracked,
    }),
    storesWithTraffic: t.int({
      description: 'Stores with third-party traffic data.',
      resolve: (o) => o.totals.storesWithTraffic,
    }),
    dropshippers: t.int({
      description: 'Stores classified as dropshippers.',
      resolve: (o) => o.totals.dropshippers,
    }),
    averages: t.field({
      type: OverviewAverages,
      description: 'Catalog-wide means of visits, revenue and rating.',
      resolve: (o) => o.totals,
    }),
    topVerticals: t.field({
      type: [VerticalStat],
      description: 'The five verticals with the most stores, most first.',
      resolve: (o) => o.topVerticals,
    }),
    topCountries: t.field({
      type: [CountryStat],
      description: 'The five countries with the most stores, most first.',
      resolve: (o) => o.topCountries,
    }),
    generatedAt: t.expose('generatedAt', {
      type: 'DateTime',
      description: `When these figures were computed: the whole-catalog figures come from rollups refreshed every ${ROLLUP_REFRESH_MINUTES} minutes and after each seed, never older than ${ROLLUP_MAX_AGE_MINUTES} minutes (computed live past that).`,
    }),
  }),
});

export const MoverMetricEnum = builder.enumType('MoverMetric', {
  description: 'The modeled figure movers are ranked by.',
  values: upperCaseValues(MOVER_METRICS, {
    visits: 'Modeled monthly visits (metrics.visitsChangePct).',
    revenue: 'High end of the modeled revenue band (metrics.revenueChangePct).',
  }),
});
export const MoverDirectionEnum = builder.enumType('MoverDirection', {
  description: 'Whether to rank the largest gains or the largest drops.',
  values: upperCaseValues(MOVER_DIRECTIONS, {
    up: 'Largest increases first.',
    down: 'Largest decreases first.',
  }),
});

export const Mover = builder.objectRef<MoverRow & { metric: MoverMetric }>('Mover').implement({
  description:
    'A store whose modeled visits or revenue (band high end) changed over the last 30 days.',
  fields: (t) => ({
    store: t.field({
      type: StoreRef,
      description: 'The store that moved.',
      resolve: (m) => m.store,
    }),
    metric: t.field({
      type: MoverMetricEnum,
      description: 'The figure that moved (the metric asked for).',
      resolve: (m) => m.metric,
    }),
    changePct: t.exposeFloat('changePct', { description: 'Signed change over 30 days, percent.' }),
    current: t.exposeFloat('current', {
      description: 'The figure now: monthly visits, or the revenue band high end in USD.',
    }),
    previous: t.exposeFloat('previous', { description: 'The figure 30 days earlier.' }),
  }),
});

export const MoverConnection = builder.connectionObject(
  {
    type: Mover,
    name: 'MoverConnection',
    description: 'A page of movers, largest change first in the direction asked.',
  },
  { name: 'MoverEdge', description: 'One mover, with its cursor.' },
);
