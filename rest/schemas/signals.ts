// Response bodies of the Signals watch, probe, sales and insight routes (rest/routes/signals.ts).
import { z } from 'zod';
import { DateTime, Day, listOf, orNull, Page } from './common.ts';
import { UNLISTED } from '../../src/seed/seeded-catalog.ts';

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
