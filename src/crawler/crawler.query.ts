// Query.crawlerStatus: the crawler as the operations console shows it (crawler-status.sql.ts), read
// from the database so every replica answers the same: the schedule, discovery, the durable
// queue's depth by kind of job, recent observations by minute and outcome, the freshness of the
// catalog's observations, the worker processes with their settings, and the policy they apply.
// Subscription.crawlerStatus: the same, live (a snapshot every few seconds, read once per process
// for every console following it: crawler-status-feed.ts). Internal data: a key needs the
// operations:read scope (open-dev mode, where no key exists, reads it too).
import type { FieldRules } from '../access/field-rules.ts';
import { rules } from '../access/field-rules.ts';
import { builder } from '../graphql/builder.ts';
import type { Services } from '../platform/services.ts';
import * as policy from '../storefront/observation-policy.ts';
import { CrawlerStatusFeed, STATUS_INTERVAL_MS } from './crawler-status-feed.ts';
import { crawlerStatus, type CrawlerStatus } from './crawler-status.sql.ts';

type Status = CrawlerStatus;
type WorkerRow = Status['workers'][number];
interface WorkerSettings {
  discoverLinks?: boolean;
  hostIntervalMs?: number;
  userAgent?: string;
}

const ScheduleCounts = builder.objectRef<Status['stores']>('CrawlerScheduleCounts').implement({
  description: 'Real stores the scheduler keeps observed (synthetic stores are never scheduled).',
  fields: (t) => ({
    scheduled: t.exposeInt('scheduled', { description: 'Stores on the observation schedule.' }),
    active: t.exposeInt('active', {
      description: 'Of those, stores whose last observation read the storefront.',
    }),
    failing: t.exposeInt('failing', {
      description:
        'Stores whose last observations failed but are still listed (see StorePresence).',
    }),
    vanished: t.exposeInt('vanished', {
      description: 'Left out of search results; looked at again weekly.',
    }),
    due: t.exposeInt('due', { description: 'Due now and not yet claimed: the backlog.' }),
    inFlight: t.exposeInt('inFlight', {
      description: 'Claimed: their observation job is queued or running.',
    }),
  }),
});

const CandidateCounts = builder
  .objectRef<Status['candidates']>('CrawlerCandidateCounts')
  .implement({
    description: 'Discovery candidates by status.',
    fields: (t) => ({
      pending: t.exposeInt('pending', { description: 'Found, waiting to be checked.' }),
      queued: t.exposeInt('queued', { description: 'Their check is on the job queue.' }),
      accepted: t.exposeInt('accepted', { description: 'Checked and added to the catalog.' }),
      duplicate: t.exposeInt('duplicate', {
        description:
          'Checked and found to be a store already in the catalog (another domain of it).',
      }),
      rejected: t.exposeInt('rejected', {
        description: 'Checked and refused (not a storefront of the platform, unreachable, ...).',
      }),
    }),
  });

const QueueDepth = builder.objectRef<Status['queue'][number]>('QueueDepth').implement({
  description: 'Jobs of one kind on the durable queue.',
  fields: (t) => ({
    task: t.exposeString('task', {
      description:
        'e.g. catalog-observe, catalog-discover, scrape-store, signal-probe, deliver-webhook.',
    }),
    waiting: t.exposeInt('waiting', { description: 'Due and not yet taken by a worker.' }),
    scheduled: t.exposeInt('scheduled', { description: 'Due later (retries, ticks).' }),
    running: t.exposeInt('running', { description: 'Taken by a worker and running now.' }),
    failed: t.exposeInt('failed', { description: 'Attempts used up.' }),
  }),
});

const MinuteCount = builder
  .objectRef<Status['recent']['perMinute'][number]>('ObservationMinute')
  .implement({
    description: 'Observations that finished in one minute, by result.',
    fields: (t) => ({
      minute: t.expose('minute', { type: 'DateTime', description: 'Start of the minute (UTC).' }),
      ok: t.exposeInt('ok', { description: 'Observations that read the storefront.' }),
      failed: t.exposeInt('failed', { description: 'Observations that failed.' }),
    }),
  });

const OutcomeCount = builder
  .objectRef<Status['recent']['outcomes'][number]>('ObservationOutcomeCount')
  .implement({
    description: 'Observations of the recent window with one outcome and one trigger.',
    fields: (t) => ({
      outcome: t.exposeString('outcome', {
        description:
          'ok, or why it failed: not_found, unresolvable, moved, rate_limited, robots, internal, ...',
      }),
      trigger: t.exposeString('trigger', {
        description:
          'scheduled, scrape, discovery or probe (the observation after a Signals probe).',
      }),
      count: t.exposeInt('count', { description: 'Observations with this outcome and trigger.' }),
    }),
  });

const RecentObservations = builder.objectRef<Status['recent']>('RecentObservations').implement({
  description: 'Storefront observations that finished in the last recentMinutes minutes.',
  fields: (t) => ({
    minutes: t.exposeInt('minutes', { description: 'The window these figures cover.' }),
    observations: t.exposeInt('observations', {
      description: 'Observations finished in the window.',
    }),
    perMinute: t.field({
      type: [MinuteCount],
      description: 'The same observations minute by minute.',
      resolve: (r) => r.perMinute,
    }),
    outcomes: t.field({
      type: [OutcomeCount],
      description: 'The same observations by outcome and trigger.',
      resolve: (r) => r.outcomes,
    }),
    p50Ms: t.exposeInt('p50Ms', {
      nullable: true,
      description: 'Median duration of an observation, milliseconds; null when there was none.',
    }),
    p99Ms: t.exposeInt('p99Ms', {
      nullable: true,
      description: '99th percentile duration, milliseconds; null when there was none.',
    }),
  }),
});

const FreshnessBucket = builder
  .objectRef<Status['freshness'][number]>('FreshnessBucket')
  .implement({
    description: 'Scheduled stores by the age of their last good observation.',
    fields: (t) => ({
      bucket: t.exposeString('bucket', {
        description:
          'Age of the last good observation: never, under 1 hour, 1 to 24 hours, 1 to 3 days, 3 to 7 days or over 7 days.',
      }),
      stores: t.exposeInt('stores', { description: 'Scheduled stores of that age.' }),
    }),
  });

const CrawlerWorker = builder.objectRef<WorkerRow>('CrawlerWorker').implement({
  description: 'A worker process running the scheduler, and the settings it runs.',
  fields: (t) => ({
    id: t.exposeString('id', {
      description: "The worker process's registration id (a live process, not a cacheable entity).",
    }),
    host: t.exposeString('host', { description: 'The machine it runs on.' }),
    pid: t.exposeInt('pid', { description: 'Its operating-system process id on that host.' }),
    startedAt: t.expose('startedAt', {
      type: 'DateTime',
      description: 'When the process started.',
    }),
    seenAt: t.expose('seenAt', {
      type: 'DateTime',
      description: 'Its last sweep (every few seconds while it lives).',
    }),
    concurrency: t.exposeInt('concurrency', {
      description: 'Observations it runs at once (CATALOG_WORKER_CONCURRENCY).',
    }),
    globalConcurrency: t.exposeInt('globalConcurrency', {
      description: 'Claims in flight across all workers (CATALOG_CONCURRENCY).',
    }),
    discoverLinks: t.boolean({
      nullable: true,
      description:
        'Whether observations queue the store links they find as discovery candidates (CATALOG_DISCOVER_LINKS); null when not reported.',
      resolve: (w) => (w.settings as WorkerSettings).discoverLinks ?? null,
    }),
    hostIntervalMs: t.int({
      nullable: true,
      description:
        'Least milliseconds between two requests to one host (EGRESS_HOST_INTERVAL_MS); null when not reported.',
      resolve: (w) => (w.settings as WorkerSettings).hostIntervalMs ?? null,
    }),
    userAgent: t.string({
      nullable: true,
      description: 'The User-Agent its requests send; null when not reported.',
      resolve: (w) => (w.settings as WorkerSettings).userAgent ?? null,
    }),
  }),
});

const PopularityTier = builder
  .objectRef<(typeof policy.POPULARITY_TIERS)[number]>('PopularityTier')
  .implement({
    description: 'A popularity tier: stores with at least minVisits get this base interval.',
    fields: (t) => ({
      minVisits: t.exposeInt('minVisits', {
        description: 'Least modeled monthly visits of the tier.',
      }),
      intervalHours: t.exposeFloat('intervalHours', {
        description: 'Base hours between observations, before the change rate scales it.',
      }),
    }),
  });

const ObservationPolicy = builder.objectRef<typeof policy>('ObservationPolicy').implement({
  description: 'When the scheduler observes a store again (docs.md, Crawler).',
  fields: (t) => ({
    popularityTiers: t.field({
      type: [PopularityTier],
      description: 'Base intervals by modeled monthly visits, most visited tier first.',
      resolve: (p) => [...p.POPULARITY_TIERS],
    }),
    minIntervalHours: t.float({
      description: 'Shortest interval between two observations of a store, hours.',
      resolve: (p) => p.MIN_INTERVAL_HOURS,
    }),
    maxIntervalHours: t.float({
      description: 'Longest interval: every store is observed at least this often, hours.',
      resolve: (p) => p.MAX_INTERVAL_HOURS,
    }),
    changeRateWeight: t.float({
      description:
        "Weight of the latest observation in the change rate's moving average, 0 to 1; the interval is multiplied by 2^(1 - 2 x rate).",
      resolve: (p) => p.CHANGE_RATE_WEIGHT,
    }),
    jitter: t.float({
      description: 'Each next time is moved by up to this fraction of its interval, either way.',
      resolve: (p) => p.JITTER,
    }),
    failureBackoffMinutes: t.float({
      description:
        'Wait after a first failure, minutes; doubled per further failure, capped at the interval.',
      resolve: (p) => p.FAILURE_BACKOFF_MINUTES,
    }),
    vanishAfterFailures: t.int({
      description:
        'Failures in a row saying the storefront is gone after which a store is vanished.',
      resolve: (p) => p.VANISH_AFTER_FAILURES,
    }),
    vanishedRecheckHours: t.float({
      description: 'Hours between two looks at a vanished store.',
      resolve: (p) => p.VANISHED_RECHECK_HOURS,
    }),
  }),
});

const CrawlerStatusRef = builder.objectRef<Status>('CrawlerStatus').implement({
  description:
    "The crawler's state: schedule, discovery, queue, recent observations, freshness, workers and policy.",
  fields: (t) => ({
    at: t.expose('at', { type: 'DateTime', description: 'When this snapshot was read.' }),
    stores: t.field({
      type: ScheduleCounts,
      description:
        'The observation schedule: stores by presence, the backlog and what is in flight.',
      resolve: (s) => s.stores,
    }),
    candidates: t.field({
      type: CandidateCounts,
      description: 'Discovery: domains found as possible stores, by status.',
      resolve: (s) => s.candidates,
    }),
    queue: t.field({
      type: [QueueDepth],
      description: 'The durable job queue, one entry per kind of job.',
      resolve: (s) => s.queue,
    }),
    recent: t.field({
      type: RecentObservations,
      description: 'Observations of the last recentMinutes minutes.',
      resolve: (s) => s.recent,
    }),
    freshness: t.field({
      type: [FreshnessBucket],
      description:
        'Scheduled stores by the age of their last good observation, freshest first, never-observed last.',
      resolve: (s) => s.freshness,
    }),
    workers: t.field({
      type: [CrawlerWorker],
      description:
        'Registered worker processes, oldest start first (seenAt tells whether one still lives).',
      resolve: (s) => s.workers,
    }),
    policy: t.field({
      type: ObservationPolicy,
      description: 'The re-observation policy the workers apply.',
      resolve: () => policy,
    }),
  }),
});

/** The operations console polls and follows it: the rate limit applies, no daily bucket; a key needs operations:read. */
const CONSOLE_RULES: FieldRules = { scope: 'operations:read' };

const recentMinutes = {
  defaultValue: 60,
  description: 'The window of the recent observations, 1 to 1440 minutes.',
  validate: {
    type: 'number' as const,
    int: true,
    min: [1, { message: 'must be at least 1' }] as [number, { message: string }],
    max: [1440, { message: 'must be at most 1440' }] as [number, { message: string }],
  },
};

builder.queryField('crawlerStatus', (t) =>
  t.field({
    extensions: rules(CONSOLE_RULES),
    type: CrawlerStatusRef,
    description:
      "The crawler's state for the operations console. Needs a key with the operations:read scope.",
    args: { recentMinutes: t.arg.int(recentMinutes) },
    resolve: (_root, args, ctx) =>
      crawlerStatus(
        ctx.services.db.pool,
        ctx.services.clock?.() ?? new Date(),
        args.recentMinutes ?? 60,
      ),
  }),
);

const feeds = new WeakMap<Services, CrawlerStatusFeed>();
function feedOf(services: Services): CrawlerStatusFeed {
  let feed = feeds.get(services);
  if (!feed) {
    feed = new CrawlerStatusFeed(
      services.db.pool,
      services.logger.child({ component: 'crawler-status' }),
      () => services.clock?.() ?? new Date(),
    );
    feeds.set(services, feed);
  }
  return feed;
}

builder.subscriptionField('crawlerStatus', (t) =>
  t.field({
    extensions: rules(CONSOLE_RULES),
    type: CrawlerStatusRef,
    description: `The crawler's state now, then a fresh snapshot every ${STATUS_INTERVAL_MS / 1000} seconds (the operations console). Needs a key with the operations:read scope.`,
    args: { recentMinutes: t.arg.int(recentMinutes) },
    subscribe: (_root, args, ctx) => feedOf(ctx.services).follow(args.recentMinutes ?? 60),
    resolve: (status) => status,
  }),
);
