// Signal.stats, Signal.sales and Signal.inventory: estimated sales from inventory snapshots
// (method in sales-estimate.ts, stated in every answer).
import { builder } from '../../graphql/builder.ts';
import { arrayConnection } from '../../graphql/pagination.ts';
import { pageArgs } from '../../graphql/page-args.ts';
import { SignalRef } from '../signal.ref.ts';
import { clockOf } from '../watches.ts';
import {
  watchDailySales,
  watchInventory,
  watchStats,
  type SalesTotals,
  type VariantInventory,
  type VariantSales,
  type WatchDailySales,
  type WatchStats,
} from './watch-sales.ts';
import type { DailyRevenue } from './watch-sales.ts';

export const MAX_INVENTORY_DAYS = 365;
const CURRENCY =
  "ISO 4217 currency of the amounts beside it: the store's own (what its storefront prices are in).";
const USD_ONLY =
  'The same amount when `currency` is USD; null otherwise (amounts are never converted).';
export const DEFAULT_WINDOW_DAYS = 30;

const VariantSalesRef = builder.objectRef<VariantSales>('SignalVariantSales').implement({
  description: "One variant's estimated sales over the watch's history.",
  fields: (t) => ({
    productHandle: t.exposeString('productHandle', {
      description: "Handle of the variant's product on the store (Product.handle).",
    }),
    variantId: t.exposeString('variantId', { description: "The storefront's variant id." }),
    sku: t.exposeString('sku', {
      nullable: true,
      description: "The merchant's SKU code; null when the variant has none.",
    }),
    title: t.exposeString('title', { description: 'Product and variant title.' }),
    units: t.exposeInt('units', { description: 'Estimated units sold.' }),
    revenue: t.exposeFloat('revenue', {
      description: 'Estimated revenue (units x price), in `currency`.',
    }),
    currency: t.exposeString('currency', { description: CURRENCY }),
    revenueUsd: t.exposeFloat('revenueUsd', { nullable: true, description: USD_ONLY }),
  }),
});

const SalesTotalsRef = builder.objectRef<SalesTotals>('SignalSalesTotals').implement({
  description: 'Estimated sales of all tracked variants together (an estimate from stock changes).',
  fields: (t) => ({
    days: t.exposeInt('days', {
      description: 'UTC days with an estimate (an interval between two snapshots ended on them).',
    }),
    units: t.exposeInt('units', { description: 'Estimated units sold over those days.' }),
    revenue: t.exposeFloat('revenue', { description: 'Estimated revenue, in `currency`.' }),
    revenuePerDay: t.exposeFloat('revenuePerDay', {
      description: 'revenue / days, in `currency`.',
    }),
    currency: t.exposeString('currency', { description: CURRENCY }),
    revenueUsd: t.exposeFloat('revenueUsd', { nullable: true, description: USD_ONLY }),
    unitsPerDay: t.exposeFloat('unitsPerDay', { description: 'units / days.' }),
    revenuePerDayUsd: t.exposeFloat('revenuePerDayUsd', { nullable: true, description: USD_ONLY }),
    restocks: t.exposeInt('restocks', {
      description: "Intervals in which a variant's stock rose.",
    }),
    restockedUnits: t.exposeInt('restockedUnits', {
      description: 'Units added to stock by those restocks.',
    }),
  }),
});

const StatsRef = builder.objectRef<WatchStats>('SignalStats').implement({
  description:
    'Aggregate estimated sales over the whole history of the watch. An estimate, not merchant-reported sales.',
  fields: (t) => ({
    ready: t.exposeBoolean('ready', {
      description: 'False until a variant has 2 snapshots; sales is then null and note says why.',
    }),
    note: t.exposeString('note', {
      nullable: true,
      description:
        'Why the figures are missing or partial, in English; null when there is nothing to say.',
    }),
    method: t.exposeString('method', {
      description: 'How sales are estimated from inventory snapshots, in plain words.',
    }),
    snapshots: t.exposeInt('snapshots', {
      description: 'Inventory snapshots taken so far (one per variant per probe).',
    }),
    probes: t.exposeInt('probes', { description: 'Probes that ended done.' }),
    firstSnapshotAt: t.expose('firstSnapshotAt', {
      type: 'DateTime',
      nullable: true,
      description: 'When the first snapshot was taken; null before any.',
    }),
    lastSnapshotAt: t.expose('lastSnapshotAt', {
      type: 'DateTime',
      nullable: true,
      description: 'When the latest snapshot was taken; null before any.',
    }),
    trackedVariants: t.exposeInt('trackedVariants', {
      description: 'Variants the watch follows now (active ones).',
    }),
    variantsWithoutStock: t.exposeInt('variantsWithoutStock', {
      description: 'Tracked variants whose storefront hides stock.',
    }),
    sales: t.field({
      type: SalesTotalsRef,
      nullable: true,
      description: 'Estimated totals over the whole history; null until ready.',
      resolve: (s) => s.sales,
    }),
    topVariants: t.field({
      type: [VariantSalesRef],
      description: 'Up to 5 variants with the most estimated units.',
      resolve: (s) => s.topVariants,
    }),
  }),
});

const DailySalesRef = builder.objectRef<DailyRevenue>('SignalDailySales').implement({
  description: "One UTC day's estimated sales of the tracked variants.",
  fields: (t) => ({
    day: t.expose('day', { type: 'Date', description: 'The UTC day.' }),
    units: t.exposeInt('units', { description: 'Estimated units sold that day.' }),
    revenue: t.exposeFloat('revenue', { description: 'Estimated revenue, in `currency`.' }),
    currency: t.exposeString('currency', { description: CURRENCY }),
    revenueUsd: t.exposeFloat('revenueUsd', { nullable: true, description: USD_ONLY }),
  }),
});

const SalesRef = builder.objectRef<WatchDailySales>('SignalSales').implement({
  description:
    'Estimated daily units and revenue. Days without an interval between two snapshots are absent (no observation, not zero).',
  fields: (t) => ({
    ready: t.exposeBoolean('ready', {
      description: 'False until a variant has 2 snapshots; days is then empty and note says why.',
    }),
    note: t.exposeString('note', {
      nullable: true,
      description:
        'Why the figures are missing or partial, in English; null when there is nothing to say.',
    }),
    method: t.exposeString('method', {
      description: 'How sales are estimated from inventory snapshots, in plain words.',
    }),
    from: t.expose('from', {
      type: 'Date',
      description: 'The first UTC day of the window (the from argument).',
    }),
    days: t.field({
      type: [DailySalesRef],
      description: 'Days with an estimate, oldest first; a day without one is absent, not zero.',
      resolve: (s) => s.days,
    }),
  }),
});

const InventoryRef = builder.objectRef<VariantInventory>('SignalVariantInventory').implement({
  description:
    "One tracked variant's stock over the window: start, end, restocks and estimated sales.",
  fields: (t) => ({
    productHandle: t.exposeString('productHandle', {
      description: "Handle of the variant's product on the store (Product.handle).",
    }),
    variantId: t.exposeString('variantId', { description: "The storefront's variant id." }),
    sku: t.exposeString('sku', {
      nullable: true,
      description: "The merchant's SKU code; null when the variant has none.",
    }),
    title: t.exposeString('title', { description: 'Product and variant title.' }),
    active: t.exposeBoolean('active', {
      description: 'False once its product left the tracked set (its history stays).',
    }),
    startStock: t.exposeInt('startStock', {
      nullable: true,
      description: 'Stock at the first snapshot in the window; null when the store hides stock.',
    }),
    endStock: t.exposeInt('endStock', {
      nullable: true,
      description: 'Stock at the last snapshot in the window.',
    }),
    startAt: t.expose('startAt', {
      type: 'DateTime',
      description: 'When the first snapshot in the window was taken.',
    }),
    endAt: t.expose('endAt', {
      type: 'DateTime',
      description: 'When the last snapshot in the window was taken.',
    }),
    unitsSold: t.exposeInt('unitsSold', {
      description: "Estimated units sold between the window's snapshots.",
    }),
    restocks: t.exposeInt('restocks', {
      description: 'Intervals in the window in which stock rose.',
    }),
    restockedUnits: t.exposeInt('restockedUnits', {
      description: 'Units added to stock by those restocks.',
    }),
    price: t.exposeFloat('price', { description: 'Price at the last snapshot, in `currency`.' }),
    currency: t.exposeString('currency', { description: CURRENCY }),
  }),
});

const InventoryConnection = builder.connectionObject(
  {
    type: InventoryRef,
    name: 'SignalInventoryConnection',
    description: "A page of a watch's variants with their stock over the window.",
  },
  { name: 'SignalInventoryEdge', description: "One variant's inventory, with its cursor." },
);

builder.objectFields(SignalRef, (t) => ({
  stats: t.field({
    type: StatsRef,
    description: 'Estimated sales over the whole history of the watch, with the top variants.',
    resolve: (w, _args, ctx) => watchStats(ctx.services.db.pool, w.id),
  }),
  sales: t.field({
    type: SalesRef,
    description: 'Estimated units and revenue day by day, from the from day on.',
    args: {
      from: t.arg({
        type: 'Date',
        description: `First UTC day; default ${DEFAULT_WINDOW_DAYS} days ago.`,
      }),
    },
    resolve: (w, { from }, ctx) =>
      watchDailySales(
        ctx.services.db.pool,
        w.id,
        from ?? new Date(clockOf(ctx).getTime() - DEFAULT_WINDOW_DAYS * 86_400_000),
      ),
  }),
  inventory: t.field({
    type: InventoryConnection,
    description:
      'Per variant with a snapshot in the last `days` days: start and end stock, restocks and estimated units sold.',
    args: {
      ...pageArgs,
      days: t.arg.int({
        defaultValue: DEFAULT_WINDOW_DAYS,
        description: `The window: the last 1 to ${MAX_INVENTORY_DAYS} days.`,
        validate: {
          type: 'number',
          int: true,
          min: [1, { message: 'must be at least 1' }],
          max: [MAX_INVENTORY_DAYS, { message: `must be at most ${MAX_INVENTORY_DAYS}` }],
        },
      }),
    },
    resolve: async (w, { days, ...args }, ctx) => {
      const since = new Date(clockOf(ctx).getTime() - (days ?? DEFAULT_WINDOW_DAYS) * 86_400_000);
      return arrayConnection(args, await watchInventory(ctx.services.db.pool, w.id, since));
    },
  }),
}));
