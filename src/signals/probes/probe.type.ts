// SignalProbe and Signal.probe: the latest probe of a watch, polled at GET /v1/signals/{domain}/probe.
import { builder } from '../../graphql/builder.ts';
import { watchesByIds } from '../find-watch.ts';
import { SignalRef } from '../signal.ref.ts';
import {
  latestProbe,
  PROBE_KINDS,
  PROBE_STATUSES,
  probesByIds,
  type ProbeRecord,
} from './probe-record.ts';

const ProbeStatusEnum = builder.enumType('SignalProbeStatus', {
  description: 'queued -> running -> done, or failed (see error).',
  values: PROBE_STATUSES,
});

const ProbeKindEnum = builder.enumType('SignalProbeKind', {
  description:
    'first: queued with the watch. scheduled: every SIGNAL_PROBE_INTERVAL_MINUTES while tracked. manual: POST /probe.',
  values: PROBE_KINDS,
});

export const SignalProbeRef = builder.objectRef<ProbeRecord>('SignalProbe');

builder.node(SignalProbeRef, {
  description: "One reading of the tracked variants' stock and prices from the storefront.",
  id: { resolve: (p) => p.id, parse: (id) => Number(id) },
  // readable when its watch is (node(id) of the Signal)
  loadMany: async (ids, ctx) => {
    const probes = await probesByIds(ctx.services.db.pool, ids);
    const watches = await watchesByIds(
      ctx,
      probes.map((p) => p?.signalId ?? Number.NaN),
    );
    return probes.map((probe, i) => (probe && watches[i] ? probe : null));
  },
  fields: (t) => ({
    probeId: t.exposeInt('id', {
      description: "The probe's own number, as REST's `id` shows it (id is the global Node id).",
    }),
    kind: t.field({ type: ProbeKindEnum, resolve: (p) => p.kind }),
    status: t.field({ type: ProbeStatusEnum, resolve: (p) => p.status }),
    snapshots: t.exposeInt('snapshots', {
      description: 'Inventory snapshots written (one per variant read); 0 until done.',
    }),
    error: t.exposeString('error', {
      nullable: true,
      description: 'Why the probe failed; null otherwise.',
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    startedAt: t.expose('startedAt', { type: 'DateTime', nullable: true }),
    finishedAt: t.expose('finishedAt', { type: 'DateTime', nullable: true }),
  }),
});

builder.objectField(SignalRef, 'probe', (t) =>
  t.field({
    type: SignalProbeRef,
    nullable: true,
    description: 'The latest probe (manual, scheduled or the first).',
    resolve: (w, _args, ctx) => latestProbe(ctx.services.db.pool, w.id),
  }),
);
