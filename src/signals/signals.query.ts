// The watch lifecycle in the GraphQL schema: Query.signals (the caller's watches), Query.signal
// (one, by domain or legacy id), and the mutations createSignal, updateSignal, stopSignal,
// deleteSignal and probeSignal. Partner keys (signals:read) may read, never write (unauthorized, reason scope).
import { builder } from '../graphql/builder.ts';
import { pageArgs } from '../graphql/page-args.ts';
import { offsetConnection } from '../graphql/pagination.ts';
import { findWatch } from './find-watch.ts';
import { requestManualProbe } from './probes/manual-probe.ts';
import { SignalProbeRef } from './probes/probe.type.ts';
import { SignalRef } from './signal.ref.ts';
import { SignalStatusEnum } from './signal.type.ts';
import {
  countWatches,
  createWatch,
  deleteWatch,
  listWatches,
  MAX_TRACKED_PRODUCTS,
  updateWatch,
} from './watches.ts';

const SignalConnection = builder.connectionObject(
  {
    type: SignalRef,
    name: 'SignalConnection',
    description: "A page of the account's watches, newest first.",
  },
  { name: 'SignalEdge', description: 'One watch, with its cursor.' },
);

builder.queryField('signals', (t) =>
  t.field({
    type: SignalConnection,
    description: "The key's account's watches, newest first.",
    args: pageArgs,
    resolve: (_root, args, ctx) =>
      offsetConnection(
        args,
        (window) => listWatches(ctx, window),
        () => countWatches(ctx),
      ),
  }),
);

builder.queryField('signal', (t) =>
  t.field({
    type: SignalRef,
    nullable: true,
    description:
      "One watch of the key's account (a partner key: the watch of any account on that store); not_found otherwise.",
    args: {
      domain: t.arg({
        type: 'String',
        required: true,
        description: 'A domain, a full URL, or the legacy store id.',
      }),
    },
    resolve: (_root, { domain }, ctx) => findWatch(ctx, domain, 'read'),
  }),
);

builder.mutationField('createSignal', (t) =>
  t.field({
    type: SignalRef,
    description:
      'Watch a catalog store: best-sellers tracked, a first probe queued. bad_request with details.reason already_tracked when already watched; not_found when not in the catalog.',
    args: { domain: t.arg.string({ required: true, description: 'A domain or a full URL.' }) },
    resolve: (_root, { domain }, ctx) => createWatch(ctx, domain),
  }),
);

builder.mutationField('updateSignal', (t) =>
  t.field({
    type: SignalRef,
    description:
      'Pause (status PAUSED) or resume (TRACKED) a watch, and/or swap its tracked products.',
    args: {
      domain: t.arg({
        type: 'String',
        required: true,
        description: "The watched store's domain, URL or legacy id.",
      }),
      status: t.arg({
        type: SignalStatusEnum,
        description: 'paused to stop scheduled probes, tracked to resume them; omit to keep.',
      }),
      products: t.arg.stringList({
        description: `Product handles (1 to ${MAX_TRACKED_PRODUCTS}): the new tracked set, every variant of each.`,
      }),
    },
    resolve: (_root, { domain, status, products }, ctx) =>
      updateWatch(ctx, domain, { status, products }),
  }),
);

builder.mutationField('stopSignal', (t) =>
  t.field({
    type: SignalRef,
    description: 'Same as updateSignal with status PAUSED.',
    args: {
      domain: t.arg({
        type: 'String',
        required: true,
        description: "The watched store's domain, URL or legacy id.",
      }),
    },
    resolve: (_root, { domain }, ctx) => updateWatch(ctx, domain, { status: 'paused' }),
  }),
);

const DeletedSignalRef = builder.objectRef<{ domain: string }>('DeletedSignal').implement({
  description: 'The answer to deleteSignal.',
  fields: (t) => ({
    domain: t.exposeString('domain', {
      description: 'The store whose watch was deleted; it stays in the catalog.',
    }),
    deleted: t.boolean({
      description: 'Always true: a watch that cannot be deleted answers an error instead.',
      resolve: () => true,
    }),
  }),
});

builder.mutationField('deleteSignal', (t) =>
  t.field({
    type: DeletedSignalRef,
    description:
      'Delete a watch with its probes, snapshots and insights; the catalog keeps the store.',
    args: {
      domain: t.arg({
        type: 'String',
        required: true,
        description: "The watched store's domain, URL or legacy id.",
      }),
    },
    resolve: async (_root, { domain }, ctx) => ({
      domain: (await deleteWatch(ctx, domain)).domain,
    }),
  }),
);

builder.mutationField('probeSignal', (t) =>
  t.field({
    type: SignalProbeRef,
    description:
      'Queue a manual probe; within 5 minutes of the previous manual probe: rate_limited with retryAfter.',
    args: {
      domain: t.arg({
        type: 'String',
        required: true,
        description: "The watched store's domain, URL or legacy id.",
      }),
    },
    resolve: (_root, { domain }, ctx) => requestManualProbe(ctx, domain),
  }),
);
