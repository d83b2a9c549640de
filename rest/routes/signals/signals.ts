// The Signals routes of the watch lifecycle, probes, estimated sales and insights. Each runs its
// persisted operation (signals-*.graphql beside this file). Signals routes count against no daily
// bucket: only the key's per-minute rate and per-key daily ceiling apply.
import { z } from 'zod';
import {
  CreateSignalDocument,
  DeleteSignalDocument,
  GetSignalDocument,
  GetSignalInventoryDocument,
  GetSignalProbeDocument,
  GetSignalSalesDocument,
  GetSignalStatsDocument,
  ListInsightInboxDocument,
  ListSignalInsightsDocument,
  ListSignalsDocument,
  ProbeSignalDocument,
  StopSignalDocument,
  UpdateSignalDocument,
  type SignalFieldsFragment,
  type SignalProbeFieldsFragment,
  type InsightFieldsFragment,
} from '../../generated/operations.ts';
import { fromGraphqlEnum, toGraphqlEnum } from '../../../src/graphql/enums.ts';
import { connectionArgs, listEnvelope, pageOfList } from '../../pagination.ts';
import { dateParam, enumParam, integerParam, paginationParams, textParam } from '../../params.ts';
import { defineRoute, noPathParams, noQuery, type RestRoute } from '../../route.ts';
import { DateTime, Day, listOf, orNull, Page } from '../../shapes.ts';
import {
  INSIGHT_KINDS,
  SPIKE_FACTOR,
  SPIKE_MIN_TRAILING_DAYS,
  SPIKE_MIN_UNITS,
  SPIKE_TRAILING_DAYS,
} from '../../../src/signals/insights/insight-rules.ts';
import { MANUAL_PROBE_COOLDOWN_MS } from '../../../src/signals/probes/probe-record.ts';
import { DEFAULT_WINDOW_DAYS, MAX_INVENTORY_DAYS } from '../../../src/signals/sales/sales.type.ts';
import { ESTIMATE_METHOD } from '../../../src/signals/sales/watch-sales.ts';
import { notFound } from '../../../src/platform/errors.ts';
import { AUTO_TRACKED_PRODUCTS, MAX_TRACKED_PRODUCTS } from '../../../src/signals/watches.ts';
import { UNLISTED } from '../../../src/seed/seeded-catalog.ts';

export const SignalProbe = z
  .strictObject({
    id: z.number().int(),
    kind: z.enum(['first', 'scheduled', 'manual']).meta({
      description:
        'first: queued with the watch; scheduled: every probe interval while tracked; manual: POST /v1/signals/{domain}/probe.',
    }),
    progress: z.strictObject({
      status: z
        .enum(['queued', 'running', 'done', 'failed'])
        .meta({ description: 'queued -> running -> done, or failed (see error).' }),
      snapshots: z
        .number()
        .int()
        .meta({ description: 'Inventory snapshots written, one per variant read; 0 until done.' }),
    }),
    error: z.string().nullable().meta({ description: 'Why the probe failed; null otherwise.' }),
    createdAt: DateTime,
    startedAt: DateTime.nullable(),
    finishedAt: DateTime.nullable(),
  })
  .meta({
    id: 'SignalProbe',
    description: "One reading of the tracked variants' stock and prices from the storefront.",
  });

export const TrackedVariant = z
  .strictObject({
    productHandle: z.string(),
    variantId: z.string().nullable().meta({
      description: "The storefront's variant id; null until a probe has read the product.",
    }),
    sku: z.string().nullable(),
    title: z.string(),
    active: z
      .boolean()
      .meta({ description: 'False once its product left the tracked set; its history stays.' }),
  })
  .meta({ id: 'TrackedVariant' });

export const Signal = z
  .strictObject({
    domain: z
      .string()
      .meta({ description: "The store's canonical domain.", example: UNLISTED.store }),
    legacyId: z
      .string()
      .nullable()
      .meta({ description: "The store's legacy id, also accepted as {domain}." }),
    status: z.enum(['tracked', 'paused']).meta({
      description: 'tracked: probed on schedule. paused: scheduled probes stopped, history kept.',
    }),
    createdAt: DateTime,
    updatedAt: DateTime,
    lastProbeAt: DateTime.nullable().meta({
      description: 'When the last successful probe took its snapshots.',
    }),
    nextProbeAt: DateTime.nullable().meta({
      description: 'When the next scheduled probe is due; null while paused.',
    }),
    trackedVariants: z.array(TrackedVariant),
    probe: orNull(SignalProbe).meta({ description: 'The latest probe.' }),
    links: z.strictObject({
      probe: z.string(),
      stats: z.string(),
      sales: z.string(),
      inventory: z.string(),
      insights: z.string(),
    }),
  })
  .meta({
    id: 'Signal',
    description: "A watch on a competitor store, scoped to the key's account.",
  });

export const SignalList = listOf(
  Signal,
  'SignalList',
  "The key's account's watches, newest first.",
);

export const DeletedSignal = z.strictObject({ domain: z.string(), deleted: z.literal(true) }).meta({
  id: 'DeletedSignal',
  description:
    'The watch is gone with its probes, snapshots and insights; the store stays in the catalog.',
});

export const SignalProbeStatus = SignalProbe.extend({ domain: z.string() }).meta({
  id: 'SignalProbeStatus',
  description: 'The latest probe of the watch, with progress.status at the top level of the body.',
});

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

export const Insight = z
  .strictObject({
    id: z.number().int(),
    domain: z.string().meta({ description: 'The watched store.' }),
    kind: z.enum(['sales_spike', 'restock', 'ad_new_campaign', 'app_change', 'price_change']),
    title: z.string(),
    body: z.string(),
    data: z
      .record(z.string(), z.unknown())
      .meta({ description: 'The facts behind the card; keys depend on kind.' }),
    createdAt: DateTime,
  })
  .meta({
    id: 'Insight',
    description: 'An insight card, pulled from the insights routes (never pushed).',
  });

export const InsightList = listOf(Insight, 'InsightList', 'Insight cards, newest first.');

/** the examples' store: the one the scrape examples scrape, then watched (src/seed/seeded-catalog.ts) */
const STORE = UNLISTED.store;

const watchPath = z.strictObject({
  domain: textParam(2048).meta({
    description:
      'The watched store: a bare domain (example.com), a URL-encoded full URL (https%3A%2F%2Fwww.example.com) or the legacy store-database id (24 hex characters).',
    example: STORE,
  }),
});

const SCOPE =
  "The watch must belong to the key's account: another account's watch is not_found, exactly like a store nobody watches.";
const PARTNER_READ =
  ' A partner key (scope signals:read) may read any domain already on Signals (the oldest watch of that store).';
const WRITE =
  ' A partner key (signals:read) may not create, alter or delete watches: HTTP 403, code unauthorized with details.reason "scope".';

const links = (domain: string) => ({
  probe: `/v1/signals/${domain}/probe`,
  stats: `/v1/signals/${domain}/stats`,
  sales: `/v1/signals/${domain}/sales`,
  inventory: `/v1/signals/${domain}/inventory`,
  insights: `/v1/signals/${domain}/insights`,
});

const probeBody = ({ probeId, status, snapshots, ...probe }: SignalProbeFieldsFragment) => ({
  id: probeId,
  ...probe,
  kind: fromGraphqlEnum(probe.kind),
  progress: { status: fromGraphqlEnum(status), snapshots },
});

const signalBody = ({ probe, ...watch }: SignalFieldsFragment) => ({
  ...watch,
  status: fromGraphqlEnum(watch.status),
  probe: probe ? probeBody(probe) : null,
  links: links(watch.domain),
});

const insightBody = ({ insightId, data, ...insight }: InsightFieldsFragment) => ({
  id: insightId,
  ...insight,
  kind: fromGraphqlEnum(insight.kind),
  data: data as Record<string, unknown>,
});

export const createSignal = defineRoute({
  operationId: 'createSignal',
  method: 'POST',
  path: '/v1/signals',
  tag: 'Signals',
  summary: 'Watch a store',
  description:
    "Creates a watch (status tracked) on a store of the catalog for the key's account and answers HTTP 201 with it. " +
    `The store's best-sellers are tracked automatically (up to ${AUTO_TRACKED_PRODUCTS} products, best first; when the ` +
    'catalog marks none, its newest products): every variant of each, resolved into variants by the first probe, which ' +
    'is queued at once; poll GET /v1/signals/{domain}/probe until progress.status is done or failed. Scheduled probes ' +
    'then follow every probe interval (server setting SIGNAL_PROBE_INTERVAL_MINUTES, default 360). ' +
    'Already watched by this account: HTTP 409, code bad_request with details.reason "already_tracked", nothing changes. A store missing from ' +
    'the catalog: not_found (404); queue it with POST /v1/scrapes first.' +
    WRITE,
  document: CreateSignalDocument,
  pathParams: noPathParams,
  query: noQuery,
  body: z.strictObject({
    domain: z
      .string()
      .max(2_000)
      .meta({ description: 'A bare domain or a full URL.', example: STORE }),
  }),
  canBeNotFound: true,
  extraErrors: ['already_tracked', 'scope'],
  variables: (p) => ({ domain: p.domain }),
  response: Signal,
  respond: (data) => signalBody(data.createSignal),
  status: () => 201,
  successStatuses: { 201: 'Created: the watch, tracked, with its first probe queued.' },
  example: `/v1/signals {"domain":"${STORE}"}`,
});

export const listSignals = defineRoute({
  operationId: 'listSignals',
  method: 'GET',
  path: '/v1/signals',
  tag: 'Signals',
  summary: "The key's watches",
  description:
    "Every watch of the key's account, newest first (a partner key: its own account's watches).",
  document: ListSignalsDocument,
  pathParams: noPathParams,
  query: z.strictObject(paginationParams()),
  canBeNotFound: false,
  variables: (p) => connectionArgs(p),
  response: SignalList,
  respond: (data, p) => {
    const page = listEnvelope(data.signals, p);
    return { ...page, data: page.data.map(signalBody) };
  },
  example: '/v1/signals?limit=20',
});

export const getSignal = defineRoute({
  operationId: 'getSignal',
  method: 'GET',
  path: '/v1/signals/{domain}',
  tag: 'Signals',
  summary: 'One watch',
  description: `The watch with its tracked variants and latest probe. ${SCOPE}${PARTNER_READ}`,
  document: GetSignalDocument,
  pathParams: watchPath,
  query: noQuery,
  canBeNotFound: true,
  variables: (p) => ({ domain: p.domain }),
  response: Signal,
  respond: (data) => signalBody(data.signal),
  example: `/v1/signals/${STORE}`,
});

export const updateSignal = defineRoute({
  operationId: 'updateSignal',
  method: 'PATCH',
  path: '/v1/signals/{domain}',
  tag: 'Signals',
  summary: 'Pause, resume or change the tracked products of a watch',
  description:
    '`status: "paused"` stops the scheduled probes and keeps the history (manual probes remain possible); ' +
    '`status: "tracked"` resumes them, the next one due one interval after the last probe (at once when that has ' +
    `passed). \`products\` (1 to ${MAX_TRACKED_PRODUCTS} product handles of the store, see GET /v1/stores/{domain}/products) swaps ` +
    'the tracked SKU set: every variant of those products is tracked (new products are resolved into variants at the ' +
    'next probe); variants of products left out become inactive, their snapshots kept. Unknown handles: bad_request ' +
    'naming them, nothing changed. Both fields are optional; the answer is the watch. ' +
    SCOPE +
    WRITE,
  document: UpdateSignalDocument,
  pathParams: watchPath,
  query: noQuery,
  body: z.strictObject({
    status: z
      .enum(['paused', 'tracked'])
      .optional()
      .meta({ description: 'paused stops scheduled probes; tracked resumes them.' }),
    products: z
      .array(z.string().min(1).max(255))
      .min(1)
      .max(MAX_TRACKED_PRODUCTS)
      .optional()
      .meta({
        description: 'Product handles: the new tracked set.',
        example: ['linen-shirt', 'wool-coat'],
      }),
  }),
  canBeNotFound: true,
  extraErrors: ['scope'],
  variables: (p) => ({
    domain: p.domain,
    status: p.status && toGraphqlEnum(p.status),
    products: p.products,
  }),
  response: Signal,
  respond: (data) => signalBody(data.updateSignal),
  example: `/v1/signals/${STORE} {"status":"paused"}`,
});

export const stopSignal = defineRoute({
  operationId: 'stopSignal',
  method: 'POST',
  path: '/v1/signals/{domain}/stop',
  tag: 'Signals',
  summary: 'Pause a watch',
  description:
    'The same as PATCH with `status: "paused"`: scheduled probes stop, history is kept. Answers the watch. ' +
    SCOPE +
    WRITE,
  document: StopSignalDocument,
  pathParams: watchPath,
  query: noQuery,
  canBeNotFound: true,
  extraErrors: ['scope'],
  variables: (p) => ({ domain: p.domain }),
  response: Signal,
  respond: (data) => signalBody(data.stopSignal),
  example: `/v1/signals/${STORE}/stop`,
});

export const deleteSignal = defineRoute({
  operationId: 'deleteSignal',
  method: 'DELETE',
  path: '/v1/signals/{domain}',
  tag: 'Signals',
  summary: 'Delete a watch',
  description:
    'Removes the watch with its probes, tracked variants, snapshots and insights, and stops its schedule. The store ' +
    'and its catalog data stay for everyone. Answers `{domain, deleted: true}`. ' +
    SCOPE +
    WRITE,
  document: DeleteSignalDocument,
  pathParams: watchPath,
  query: noQuery,
  canBeNotFound: true,
  extraErrors: ['scope'],
  variables: (p) => ({ domain: p.domain }),
  response: DeletedSignal,
  respond: (data) => ({ domain: data.deleteSignal.domain, deleted: true as const }),
  example: `/v1/signals/${STORE}`,
});

export const probeSignal = defineRoute({
  operationId: 'probeSignal',
  method: 'POST',
  path: '/v1/signals/{domain}/probe',
  tag: 'Signals',
  summary: 'Probe a watched store now',
  description:
    'Queues a manual probe (HTTP 202 with it; poll GET /v1/signals/{domain}/probe). A probe reads GET ' +
    'https://{domain}/products/{handle}.js for every tracked product and records, per variant, price, availability and ' +
    'stock (inventory_quantity; stores that hide it get stock null: price and availability are still recorded, no sales ' +
    "are estimated from them), then computes insights, all in one transaction; afterwards the store's apps and products " +
    `are refreshed. One manual probe per watch every ${MANUAL_PROBE_COOLDOWN_MS / 60_000} minutes: sooner is rate_limited (429) ` +
    'with Retry-After and `details: {domain, cooldownSeconds, retryAfter, lastManualProbeAt}`. Paused watches may be probed ' +
    'manually. ' +
    SCOPE +
    WRITE,
  document: ProbeSignalDocument,
  pathParams: watchPath,
  query: noQuery,
  canBeNotFound: true,
  extraErrors: ['scope'],
  variables: (p) => ({ domain: p.domain }),
  response: SignalProbe,
  respond: (data) => probeBody(data.probeSignal),
  status: () => 202,
  successStatuses: { 202: 'Queued: the probe, progress.status queued.' },
  example: `/v1/signals/${STORE}/probe`,
});

export const getSignalProbe = defineRoute({
  operationId: 'getSignalProbe',
  method: 'GET',
  path: '/v1/signals/{domain}/probe',
  tag: 'Signals',
  summary: 'Progress of the latest probe',
  description:
    'The latest probe (the first, a scheduled or a manual one): progress.status queued, running, done or failed (with ' +
    `error), the snapshots written and timestamps. Poll until done or failed. ${SCOPE}${PARTNER_READ}`,
  document: GetSignalProbeDocument,
  pathParams: watchPath,
  query: noQuery,
  canBeNotFound: true,
  variables: (p) => ({ domain: p.domain }),
  response: SignalProbeStatus,
  respond: ({ signal: { domain, probe } }) => {
    // every watch is created with its first probe in the same transaction, so a watch without one is not a state
    // a caller can reach; answer it as the missing resource it would be rather than invent a progress
    if (!probe) throw notFound(`${domain} has no inventory probe yet.`, { domain });
    return { domain, ...probeBody(probe) };
  },
  example: `/v1/signals/${STORE}/probe`,
});

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

const insightQuery = z.strictObject({
  kind: enumParam(INSIGHT_KINDS).optional().meta({ description: 'Only this kind.' }),
  ...paginationParams(),
});

const INSIGHT_RULES =
  "Insights are computed at each probe and pulled here, never pushed. restock: a tracked variant's stock rose since " +
  "its previous snapshot. price_change: its price changed. sales_spike: the probe's UTC day reached at least " +
  `${SPIKE_MIN_UNITS} estimated units and ${SPIKE_FACTOR}x the median of the previous ${SPIKE_TRAILING_DAYS} days with an ` +
  `estimate (at least ${SPIKE_MIN_TRAILING_DAYS} of them); one per day. ad_new_campaign: new creatives seen by an ads ` +
  'probe. app_change: an app installed or removed, seen after a probe. Newest first.';

export const listSignalInsights = defineRoute({
  operationId: 'listSignalInsights',
  method: 'GET',
  path: '/v1/signals/{domain}/insights',
  tag: 'Signals',
  summary: "A watch's insight cards",
  description: `${INSIGHT_RULES} ${SCOPE}${PARTNER_READ}`,
  document: ListSignalInsightsDocument,
  pathParams: watchPath,
  query: insightQuery,
  canBeNotFound: true,
  variables: (p) => ({
    domain: p.domain,
    kind: p.kind && toGraphqlEnum(p.kind),
    ...connectionArgs(p),
  }),
  response: InsightList,
  respond: (data, p) => {
    const page = listEnvelope(data.signal.insights, p);
    return { ...page, data: page.data.map(insightBody) };
  },
  example: `/v1/signals/${STORE}/insights?kind=restock`,
});

export const listInsightInbox = defineRoute({
  operationId: 'listInsightInbox',
  method: 'GET',
  path: '/v1/signals/insights',
  tag: 'Signals',
  summary: 'The insight inbox across all watches',
  description: `Insight cards of every watch of the key's account, each naming its domain. ${INSIGHT_RULES}`,
  document: ListInsightInboxDocument,
  pathParams: noPathParams,
  query: insightQuery,
  canBeNotFound: false,
  variables: (p) => ({ kind: p.kind && toGraphqlEnum(p.kind), ...connectionArgs(p) }),
  response: InsightList,
  respond: (data, p) => {
    const page = listEnvelope(data.signalInsights, p);
    return { ...page, data: page.data.map(insightBody) };
  },
  example: '/v1/signals/insights?kind=sales_spike',
});

/** The Signals routes of the watch lifecycle, probes, sales and insights, in the order docs.md and the OpenAPI description list them. */
export const signalRoutes: readonly RestRoute[] = [
  createSignal,
  listSignals,
  listInsightInbox,
  getSignal,
  updateSignal,
  stopSignal,
  deleteSignal,
  probeSignal,
  getSignalProbe,
  getSignalStats,
  getSignalSales,
  getSignalInventory,
  listSignalInsights,
];
