// The Signals watch lifecycle: create, list, read, change, pause and delete a watch on a store.
// Each runs its persisted operation (signals-*.graphql beside this file). Signals routes count
// against no daily bucket: only the key's per-minute rate and per-key daily ceiling apply. The
// {domain} path parameter and the scope texts every watch route shares are here too.
import { z } from 'zod';
import {
  CreateSignalDocument,
  DeleteSignalDocument,
  GetSignalDocument,
  ListSignalsDocument,
  StopSignalDocument,
  UpdateSignalDocument,
  type SignalFieldsFragment,
  type SignalProbeFieldsFragment,
} from '../../generated/operations.ts';
import { fromGraphqlEnum, toGraphqlEnum } from '../../../src/graphql/enums.ts';
import { connectionArgs, listEnvelope } from '../../pagination.ts';
import { paginationParams, textParam } from '../../params.ts';
import { defineRoute, noPathParams, noQuery, type RestRoute } from '../../route.ts';
import { DateTime, listOf, orNull } from '../../shapes.ts';
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

/** the examples' store: the one the scrape examples scrape, then watched (src/seed/seeded-catalog.ts) */
export const STORE = UNLISTED.store;

export const watchPath = z.strictObject({
  domain: textParam(2048).meta({
    description:
      'The watched store: a bare domain (example.com), a URL-encoded full URL (https%3A%2F%2Fwww.example.com) or the legacy store-database id (24 hex characters).',
    example: STORE,
  }),
});

export const SCOPE =
  "The watch must belong to the key's account: another account's watch is not_found, exactly like a store nobody watches.";
export const PARTNER_READ =
  ' A partner key (scope signals:read) may read any domain already on Signals (the oldest watch of that store).';
export const WRITE =
  ' A partner key (signals:read) may not create, alter or delete watches: HTTP 403, code unauthorized with details.reason "scope".';

const links = (domain: string) => ({
  probe: `/v1/signals/${domain}/probe`,
  stats: `/v1/signals/${domain}/stats`,
  sales: `/v1/signals/${domain}/sales`,
  inventory: `/v1/signals/${domain}/inventory`,
  insights: `/v1/signals/${domain}/insights`,
});

export const probeBody = ({ probeId, status, snapshots, ...probe }: SignalProbeFieldsFragment) => ({
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

/** The routes of the account's watches (/v1/signals), in the order docs.md and the OpenAPI description list them. */
export const accountWatchRoutes: readonly RestRoute[] = [createSignal, listSignals];

/** The routes of one watch (/v1/signals/{domain}), in the order docs.md and the OpenAPI description list them. */
export const watchRoutes: readonly RestRoute[] = [
  getSignal,
  updateSignal,
  stopSignal,
  deleteSignal,
];
