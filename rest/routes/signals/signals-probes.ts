// A watch's inventory probes: queue a manual one, and follow the latest.
import { z } from 'zod';
import { GetSignalProbeDocument, ProbeSignalDocument } from '../../generated/operations.ts';
import { noQuery, defineRoute, type RestRoute } from '../../route.ts';
import { MANUAL_PROBE_COOLDOWN_MS } from '../../../src/signals/probes/probe-record.ts';
import { notFound } from '../../../src/platform/errors.ts';
import {
  PARTNER_READ,
  SCOPE,
  STORE,
  SignalProbe,
  WRITE,
  probeBody,
  watchPath,
} from './signals-watches.ts';

export const SignalProbeStatus = SignalProbe.extend({ domain: z.string() }).meta({
  id: 'SignalProbeStatus',
  description: 'The latest probe of the watch, with progress.status at the top level of the body.',
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

/** The probe routes, in the order docs.md and the OpenAPI description list them. */
export const probeRoutes: readonly RestRoute[] = [probeSignal, getSignalProbe];
