// The Signal GraphQL type's base fields (a watch: one account following one store) and the
// variants it tracks. Probes, sales, insights, ads and changes add their fields in their own files.
import { builder } from '../graphql/builder.ts';
import { upperCaseValues } from '../graphql/enums.ts';
import { watchesByIds } from './find-watch.ts';
import { SignalRef } from './signal.ref.ts';
import { trackedVariants, type TrackedVariantRecord } from './tracked-variants.ts';
import { SIGNAL_STATUSES } from './watch-record.ts';

export const SignalStatusEnum = builder.enumType('SignalStatus', {
  description:
    'TRACKED: probed every SIGNAL_PROBE_INTERVAL_MINUTES. PAUSED: scheduled probes stopped, history kept (updateSignal with status TRACKED resumes). REST spells each in lower case.',
  values: upperCaseValues(SIGNAL_STATUSES, {
    tracked: 'Probed on schedule: snapshots, sales and insights keep coming.',
    paused: 'Scheduled probes stopped; everything gathered so far is kept.',
  }),
});

export const TrackedVariantRef = builder
  .objectRef<TrackedVariantRecord>('TrackedVariant')
  .implement({
    description:
      'A variant (SKU) the watch follows. Tracking is by product: every variant of a tracked product.',
    fields: (t) => ({
      productHandle: t.exposeString('productHandle', {
        description: "Handle of the variant's product on the store (Product.handle).",
      }),
      variantId: t.exposeString('variantId', {
        nullable: true,
        description: "The storefront's variant id; null until a probe has read the product.",
      }),
      sku: t.exposeString('sku', {
        nullable: true,
        description: "The merchant's SKU code; null when the variant has none.",
      }),
      title: t.exposeString('title', {
        description: 'Product and variant title, e.g. "Classic Tee - M / Black".',
      }),
      active: t.exposeBoolean('active', {
        description: 'False once its product left the tracked set (its history stays).',
      }),
    }),
  });

builder.node(SignalRef, {
  description: "A watch on a competitor store, scoped to the key's account (spec part 3, Signal).",
  id: { resolve: (w) => w.id, parse: (id) => Number(id) },
  // as Query.signal: the key's account's watches (a partner key: any store's, as by domain)
  loadMany: (ids, ctx) => watchesByIds(ctx, ids),
  fields: (t) => ({
    domain: t.exposeString('domain', { description: "The store's canonical domain." }),
    legacyId: t.exposeString('legacyId', {
      nullable: true,
      description: "The store's legacy id, also accepted as {domain}.",
    }),
    status: t.field({
      type: SignalStatusEnum,
      description: 'tracked (probed on schedule) or paused.',
      resolve: (w) => w.status,
    }),
    createdAt: t.expose('createdAt', {
      type: 'DateTime',
      description: 'When the watch was created.',
    }),
    updatedAt: t.expose('updatedAt', {
      type: 'DateTime',
      description: 'When updateSignal or stopSignal last touched the watch; createdAt until then.',
    }),
    lastProbeAt: t.expose('lastProbeAt', {
      type: 'DateTime',
      nullable: true,
      description: 'When the last probe that succeeded took its snapshots.',
    }),
    nextProbeAt: t.expose('nextProbeAt', {
      type: 'DateTime',
      nullable: true,
      description: 'When the next scheduled probe is due; null while paused.',
    }),
    trackedVariants: t.field({
      type: [TrackedVariantRef],
      description: 'Every variant the watch follows or followed, active first.',
      resolve: (w, _args, ctx) => trackedVariants(ctx.services.db.pool, w.id),
    }),
  }),
});
