// SignalProbe and Signal.probe: the latest probe of a watch, polled at GET /v1/signals/{domain}/probe.
import { builder } from '../../graphql/builder.ts';
import { upperCaseValues } from '../../graphql/enums.ts';
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
  values: upperCaseValues(PROBE_STATUSES, {
    queued: 'Waiting for a worker.',
    running: 'Reading the storefront now.',
    done: 'Finished: its snapshots are written.',
    failed: 'Ended without snapshots; error says why.',
  }),
});

const ProbeKindEnum = builder.enumType('SignalProbeKind', {
  description:
    'FIRST: queued with the watch. SCHEDULED: every SIGNAL_PROBE_INTERVAL_MINUTES while TRACKED. MANUAL: probeSignal (REST: POST /probe). REST spells each in lower case.',
  values: upperCaseValues(PROBE_KINDS, {
    first: 'The probe queued when the watch was created.',
    scheduled: 'A periodic probe of a tracked watch.',
    manual: 'Asked for with probeSignal (POST /v1/signals/{domain}/probe).',
  }),
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
    kind: t.field({
      type: ProbeKindEnum,
      description: 'What started the probe: first, scheduled or manual.',
      resolve: (p) => p.kind,
    }),
    status: t.field({
      type: ProbeStatusEnum,
      description: 'Where the probe is (REST progress.status).',
      resolve: (p) => p.status,
    }),
    snapshots: t.exposeInt('snapshots', {
      description: 'Inventory snapshots written (one per variant read); 0 until DONE.',
    }),
    error: t.exposeString('error', {
      nullable: true,
      description: 'Why the probe failed; null otherwise.',
    }),
    createdAt: t.expose('createdAt', {
      type: 'DateTime',
      description: 'When the probe was queued.',
    }),
    startedAt: t.expose('startedAt', {
      type: 'DateTime',
      nullable: true,
      description: 'When a worker began it; null while queued.',
    }),
    finishedAt: t.expose('finishedAt', {
      type: 'DateTime',
      nullable: true,
      description: 'When it ended (done or failed); null before.',
    }),
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
