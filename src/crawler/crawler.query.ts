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
    scheduled: t.exposeInt('scheduled'),
    active: t.exposeInt('active'),
    failing: t.exposeInt('failing'),
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
      pending: t.exposeInt('pending'),
      queued: t.exposeInt('queued'),
      accepted: t.exposeInt('accepted'),
      duplicate: t.exposeInt('duplicate'),
      rejected: t.exposeInt('rejected'),
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
    running: t.exposeInt('running'),
    failed: t.exposeInt('failed', { description: 'Attempts used up.' }),
  }),
});

const MinuteCount = builder
  .objectRef<Status['recent']['perMinute'][number]>('ObservationMinute')
  .implement({
    fields: (t) => ({
      minute: t.expose('minute', { type: 'DateTime' }),
      ok: t.exposeInt('ok'),
      failed: t.exposeInt('failed'),
    }),
  });

const OutcomeCount = builder
  .objectRef<Status['recent']['outcomes'][number]>('ObservationOutcomeCount')
  .implement({
    fields: (t) => ({
      outcome: t.exposeString('outcome', {
        description:
          'ok, or why it failed: not_found, unresolvable, moved, rate_limited, robots, internal, ...',
      }),
      trigger: t.exposeString('trigger', {
        description:
          'scheduled, scrape, discovery or probe (the observation after a Signals probe).',
      }),
      count: t.exposeInt('count'),
    }),
  });

const RecentObservations = builder.objectRef<Status['recent']>('RecentObservations').implement({
  fields: (t) => ({
    minutes: t.exposeInt('minutes', { description: 'The window these figures cover.' }),
    observations: t.exposeInt('observations'),
    perMinute: t.field({ type: [MinuteCount], resolve: (r) => r.perMinute }),
    outcomes: t.field({ type: [OutcomeCount], resolve: (r) => r.outcomes }),
    p50Ms: t.exposeInt('p50Ms', { nullable: true }),
    p99Ms: t.exposeInt('p99Ms', { nullable: true }),
  }),
});

const FreshnessBucket = builder
  .objectRef<Status['freshness'][number]>('FreshnessBucket')
  .implement({
    description: 'Scheduled stores by the age of their last good observation.',
    fields: (t) => ({ bucket: t.exposeString('bucket'), stores: t.exposeInt('stores') }),
  });

const CrawlerWorker = builder.objectRef<WorkerRow>('CrawlerWorker').implement({
  description: 'A worker process running the scheduler, and the settings it runs.',
  fields: (t) => ({
    id: t.exposeString('id'),
    host: t.exposeString('host', { description: 'The machine it runs on.' }),
    pid: t.exposeInt('pid'),
    startedAt: t.expose('startedAt', { type: 'DateTime' }),
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
      resolve: (w) => (w.settings as WorkerSettings).discoverLinks ?? null,
    }),
    hostIntervalMs: t.int({
      nullable: true,
      resolve: (w) => (w.settings as WorkerSettings).hostIntervalMs ?? null,
    }),
    userAgent: t.string({
      nullable: true,
      resolve: (w) => (w.settings as WorkerSettings).userAgent ?? null,
    }),
  }),
});

const PopularityTier = builder
  .objectRef<(typeof policy.POPULARITY_TIERS)[number]>('PopularityTier')
  .implement({
    fields: (t) => ({
      minVisits: t.exposeInt('minVisits'),
      intervalHours: t.exposeFloat('intervalHours'),
    }),
  });

const ObservationPolicy = builder.objectRef<typeof policy>('ObservationPolicy').implement({
  description: 'When the scheduler observes a store again (docs.md, Crawler).',
  fields: (t) => ({
    popularityTiers: t.field({ type: [PopularityTier], resolve: (p) => [...p.POPULARITY_TIERS] }),
    minIntervalHours: t.float({ resolve: (p) => p.MIN_INTERVAL_HOURS }),
    maxIntervalHours: t.float({ resolve: (p) => p.MAX_INTERVAL_HOURS }),
    changeRateWeight: t.float({ resolve: (p) => p.CHANGE_RATE_WEIGHT }),
    jitter: t.float({ resolve: (p) => p.JITTER }),
    failureBackoffMinutes: t.float({ resolve: (p) => p.FAILURE_BACKOFF_MINUTES }),
    vanishAfterFailures: t.int({ resolve: (p) => p.VANISH_AFTER_FAILURES }),
    vanishedRecheckHours: t.float({ resolve: (p) => p.VANISHED_RECHECK_HOURS }),
  }),
});

const CrawlerStatusRef = builder.objectRef<Status>('CrawlerStatus').implement({
  description:
    "The crawler's state: schedule, discovery, queue, recent observations, freshness, workers and policy.",
  fields: (t) => ({
    at: t.expose('at', { type: 'DateTime' }),
    stores: t.field({ type: ScheduleCounts, resolve: (s) => s.stores }),
    candidates: t.field({ type: CandidateCounts, resolve: (s) => s.candidates }),
    queue: t.field({ type: [QueueDepth], resolve: (s) => s.queue }),
    recent: t.field({ type: RecentObservations, resolve: (s) => s.recent }),
    freshness: t.field({ type: [FreshnessBucket], resolve: (s) => s.freshness }),
    workers: t.field({ type: [CrawlerWorker], resolve: (s) => s.workers }),
    policy: t.field({ type: ObservationPolicy, resolve: () => policy }),
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
