// Types of the market analytics: per-vertical and per-country sums, the coverage overview, movers.
import { builder } from '../graphql/builder.ts';
import { ROLLUP_MAX_AGE_MINUTES, ROLLUP_REFRESH_MINUTES } from '../stores/rollups/store-rollups.ts';
import { StoreRef } from '../stores/store.ref.ts';
import type { CatalogTotals, CountryStatRow, VerticalStatRow } from './analytics.sql.ts';
import { MOVER_DIRECTIONS, MOVER_METRICS, type MoverMetric, type MoverRow } from './movers.sql.ts';

export const VerticalStat = builder.objectRef<VerticalStatRow>('VerticalStat').implement({
  description: 'Stores of one vertical and the sums of their modeled figures.',
  fields: (t) => ({
    vertical: t.exposeString('vertical'),
    stores: t.exposeInt('stores'),
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
    countryCode: t.exposeString('countryCode'),
    stores: t.exposeInt('stores'),
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
  { type: VerticalStat, name: 'VerticalStatConnection' },
  { name: 'VerticalStatEdge' },
);
export const CountryStatConnection = builder.connectionObject(
  { type: CountryStat, name: 'CountryStatConnection' },
  { name: 'CountryStatEdge' },
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
    monthlyVisits: t.exposeFloat('averageMonthlyVisits'),
    monthlyRevenueUsdHigh: t.exposeFloat('averageRevenueHighUsd', {
      description: "Mean of the revenue bands' high ends, USD (modeled).",
    }),
    serviceRating: t.exposeFloat('averageServiceRating'),
  }),
});

export const AnalyticsOverview = builder.objectRef<Overview>('AnalyticsOverview').implement({
  description:
    'Coverage of the catalog: counts, averages, and the five largest verticals and countries by store count.',
  fields: (t) => ({
    stores: t.int({ resolve: (o) => o.totals.stores }),
    productsTracked: t.exposeInt('productsTracked', {
      description: 'Exact below one million, the planner estimate above.',
    }),
    appsTracked: t.int({ resolve: (o) => o.totals.appsTracked }),
    storesWithTraffic: t.int({
      description: 'Stores with third-party traffic data.',
      resolve: (o) => o.totals.storesWithTraffic,
    }),
    dropshippers: t.int({
      description: 'Stores classified as dropshippers.',
      resolve: (o) => o.totals.dropshippers,
    }),
    averages: t.field({ type: OverviewAverages, resolve: (o) => o.totals }),
    topVerticals: t.field({ type: [VerticalStat], resolve: (o) => o.topVerticals }),
    topCountries: t.field({ type: [CountryStat], resolve: (o) => o.topCountries }),
    generatedAt: t.expose('generatedAt', {
      type: 'DateTime',
      description: `When these figures were computed: the whole-catalog figures come from rollups refreshed every ${ROLLUP_REFRESH_MINUTES} minutes and after each seed, never older than ${ROLLUP_MAX_AGE_MINUTES} minutes (computed live past that).`,
    }),
  }),
});

export const MoverMetricEnum = builder.enumType('MoverMetric', { values: MOVER_METRICS });
export const MoverDirectionEnum = builder.enumType('MoverDirection', { values: MOVER_DIRECTIONS });

export const Mover = builder.objectRef<MoverRow & { metric: MoverMetric }>('Mover').implement({
  description:
    'A store whose modeled visits or revenue (band high end) changed over the last 30 days.',
  fields: (t) => ({
    store: t.field({ type: StoreRef, resolve: (m) => m.store }),
    metric: t.field({ type: MoverMetricEnum, resolve: (m) => m.metric }),
    changePct: t.exposeFloat('changePct', { description: 'Signed change over 30 days, percent.' }),
    current: t.exposeFloat('current'),
    previous: t.exposeFloat('previous', { description: 'The figure 30 days earlier.' }),
  }),
});

export const MoverConnection = builder.connectionObject(
  { type: Mover, name: 'MoverConnection' },
  { name: 'MoverEdge' },
);
