// A watch's estimated sales: aggregate stats, daily units and revenue, and stock per variant.
import { z } from 'zod';
import {
  GetSignalInventoryDocument,
  GetSignalSalesDocument,
  GetSignalStatsDocument,
} from '../../generated/operations.ts';
import { connectionArgs, listEnvelope, pageOfList } from '../../pagination.ts';
import { dateParam, integerParam, paginationParams } from '../../params.ts';
import { defineRoute, noQuery, type RestRoute } from '../../route.ts';
import { DateTime, Day, listOf, Page } from '../../shapes.ts';
import { DEFAULT_WINDOW_DAYS, MAX_INVENTORY_DAYS } from '../../../src/signals/sales/sales.type.ts';
import { ESTIMATE_METHOD } from '../../../src/signals/sales/watch-sales.ts';
import { PARTNER_READ, SCOPE, STORE, watchPath } from './signals-watches.ts';

const estimate = {
  ready: z.boolean().meta({
    description:
      'False until a tracked variant has 2 inventory snapshots; data is then empty and note says why.',
  }),
  note: z.string().nullable(),
  method: z
    .string()
    .meta({ description: 'How the estimate is made. An estimate, not merchant-reported sales.' }),
  estimate: z.literal(true).meta({ description: 'These figures are estimates.' }),
};

const CURRENCY =
  "ISO 4217 currency of the amounts beside it: the store's own (what its storefront prices are in).";
const USD_ONLY =
  'The same amount when `currency` is USD; null otherwise (amounts are never converted).';

export const SignalStats = z
  .strictObject({
    domain: z.string(),
    ...estimate,
    snapshots: z
      .number()
      .int()
      .meta({ description: 'Inventory snapshots taken (all variants, all probes).' }),
    probes: z.number().int().meta({ description: 'Probes that ended done.' }),
    firstSnapshotAt: DateTime.nullable(),
    lastSnapshotAt: DateTime.nullable(),
    trackedVariants: z.number().int(),
    variantsWithoutStock: z.number().int().meta({
      description:
        'Tracked variants whose storefront hides stock: no sales are estimated for them.',
    }),
    sales: z
      .strictObject({
        days: z.number().int().meta({ description: 'UTC days with an estimate.' }),
        units: z.number().int(),
        revenue: z.number().meta({ description: 'units x price, in `currency`.' }),
        revenuePerDay: z.number().meta({ description: 'revenue / days, in `currency`.' }),
        currency: z.string().meta({ description: CURRENCY }),
        revenueUsd: z.number().nullable().meta({ description: USD_ONLY }),
        unitsPerDay: z.number().meta({ description: 'units / days.' }),
        revenuePerDayUsd: z.number().nullable().meta({ description: USD_ONLY }),
        restocks: z
          .number()
          .int()
          .meta({ description: "Intervals in which a variant's stock rose." }),
        restockedUnits: z.number().int(),
      })
      .nullable()
      .meta({ description: 'null until ready.' }),
    topVariants: z
      .array(
        z.strictObject({
          productHandle: z.string(),
          variantId: z.string(),
          sku: z.string().nullable(),
          title: z.string(),
          units: z.number().int(),
          revenue: z.number().meta({ description: 'units x price, in `currency`.' }),
          currency: z.string().meta({ description: CURRENCY }),
          revenueUsd: z.number().nullable().meta({ description: USD_ONLY }),
        }),
      )
      .meta({ description: 'Up to 5 variants with the most estimated units; empty until ready.' }),
  })
  .meta({
    id: 'SignalStats',
    description: 'Aggregate estimated sales over the whole history of the watch.',
  });

export const SignalSales = z
  .strictObject({
    data: z.array(
      z
        .strictObject({
          day: Day,
          units: z.number().int(),
          revenue: z.number().meta({ description: 'In `currency`.' }),
          currency: z.string().meta({ description: CURRENCY }),
          revenueUsd: z.number().nullable().meta({ description: USD_ONLY }),
        })
        .meta({ id: 'SignalDailySales' }),
    ),
    page: Page,
    meta: z.strictObject({ domain: z.string(), from: Day, ...estimate }),
  })
  .meta({
    id: 'SignalSales',
    description:
      'Estimated units and revenue per UTC day, oldest first. Days without an interval between two snapshots are absent: no observation, not zero.',
  });

export const SignalInventory = listOf(
  z
    .strictObject({
      productHandle: z.string(),
      variantId: z.string(),
      sku: z.string().nullable(),
      title: z.string(),
      active: z.boolean(),
      startStock: z.number().int().nullable().meta({
        description: 'Stock at the first snapshot in the window; null when the store hides stock.',
      }),
      endStock: z
        .number()
        .int()
        .nullable()
        .meta({ description: 'Stock at the last snapshot in the window.' }),
      startAt: DateTime,
      endAt: DateTime,
      unitsSold: z
        .number()
        .int()
        .meta({ description: "Estimated units sold between the window's snapshots." }),
      restocks: z.strictObject({
        count: z
          .number()
          .int()
          .meta({ description: 'Intervals in the window in which stock rose.' }),
        units: z.number().int().meta({ description: 'Units added by those restocks.' }),
      }),
      price: z.number().meta({ description: 'Price at the last snapshot, in `currency`.' }),
      currency: z.string().meta({ description: CURRENCY }),
    })
    .meta({ id: 'SignalVariantInventory' }),
  'SignalInventory',
  'Per tracked variant with a snapshot in the window, by product handle.',
);

export const getSignalStats = defineRoute({
  operationId: 'getSignalStats',
  method: 'GET',
  path: '/v1/signals/{domain}/stats',
  tag: 'Signals',
  summary: 'Aggregate estimated sales of a watch',
  description:
    `${ESTIMATE_METHOD} Totals over the whole history, per-day averages over the days with an estimate, restocks, and ` +
    'the top 5 variants by units. Before a variant has 2 snapshots: HTTP 200 with ready false, sales null, topVariants ' +
    `empty and a note — not an error. ${SCOPE}${PARTNER_READ}`,
  document: GetSignalStatsDocument,
  pathParams: watchPath,
  query: noQuery,
  canBeNotFound: true,
  variables: (p) => ({ domain: p.domain }),
  response: SignalStats,
  respond: (data) => ({
    domain: data.signal.domain,
    ...data.signal.stats,
    estimate: true as const,
  }),
  example: `/v1/signals/${STORE}/stats`,
});

export const getSignalSales = defineRoute({
  operationId: 'getSignalSales',
  method: 'GET',
  path: '/v1/signals/{domain}/sales',
  tag: 'Signals',
  summary: 'Estimated daily units and revenue',
  description:
    `${ESTIMATE_METHOD} One row per UTC day from \`from\` (default ${DEFAULT_WINDOW_DAYS} days ago) on which an interval ` +
    'between two snapshots ended; days without one are absent (no observation, not zero). Oldest day first, paged with ' +
    'limit and offset like every list. Before a variant has 2 snapshots: HTTP 200 with empty data, meta.ready false and ' +
    'a note. ' +
    SCOPE +
    PARTNER_READ,
  document: GetSignalSalesDocument,
  pathParams: watchPath,
  query: z.strictObject({
    from: dateParam()
      .optional()
      .meta({ description: 'First UTC day, YYYY-MM-DD.', example: '2026-01-01' }),
    ...paginationParams(),
  }),
  canBeNotFound: true,
  variables: (p) => ({ domain: p.domain, from: p.from }),
  response: SignalSales,
  respond: (data, p) => {
    const { days, ...meta } = data.signal.sales;
    return {
      ...pageOfList(days, p),
      meta: {
        domain: data.signal.domain,
        ...meta,
        from: String(meta.from),
        estimate: true as const,
      },
    };
  },
  example: `/v1/signals/${STORE}/sales?from=2026-01-01`,
});

export const getSignalInventory = defineRoute({
  operationId: 'getSignalInventory',
  method: 'GET',
  path: '/v1/signals/{domain}/inventory',
  tag: 'Signals',
  summary: 'Stock and restocks per variant',
  description:
    `Per tracked variant with a snapshot in the last \`days\` days (1 to ${MAX_INVENTORY_DAYS}, default ${DEFAULT_WINDOW_DAYS}): ` +
    'stock at the first and last snapshot of the window, restocks (intervals in which stock rose: count and units) and ' +
    'estimated units sold between them. Stock is null for stores that hide it. ' +
    SCOPE +
    PARTNER_READ,
  document: GetSignalInventoryDocument,
  pathParams: watchPath,
  query: z.strictObject({
    days: integerParam({ min: 1, max: MAX_INVENTORY_DAYS })
      .default(DEFAULT_WINDOW_DAYS)
      .meta({ description: 'Window length in days.' }),
    ...paginationParams(),
  }),
  canBeNotFound: true,
  variables: (p) => ({ domain: p.domain, days: p.days, ...connectionArgs(p) }),
  response: SignalInventory,
  respond: (data, p) => {
    const page = listEnvelope(data.signal.inventory, p);
    return {
      ...page,
      data: page.data.map(({ restocks, restockedUnits, ...row }) => ({
        ...row,
        restocks: { count: restocks, units: restockedUnits },
      })),
    };
  },
  example: `/v1/signals/${STORE}/inventory?days=30`,
});

/** The sales routes, in the order docs.md and the OpenAPI description list them. */
export const salesRoutes: readonly RestRoute[] = [
  getSignalStats,
  getSignalSales,
  getSignalInventory,
];
