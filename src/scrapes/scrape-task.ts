// The scrape job of one request: validating (the homepage answers and is a Shopify storefront),
// then scraping (its public JSON and, when a Chromium is available, a homepage screenshot), then one transaction that writes the catalog and ends the
// request (done, plus the webhook outbox row). A storefront that cannot be scraped fails the request
// with its reason; any other error is a fault of ours: the job is retried, and its last attempt
// fails the request. Every step is guarded by the request's state, so a job run twice (a worker that
// died mid-scrape) redoes the scrape from validating and never moves an ended request.
import type { JobHelpers } from 'graphile-worker';
import type pg from 'pg';
import { z } from 'zod';
import type { LegacyStore } from '../platform/legacy/port.ts';
import type { Logger } from '../platform/logger.ts';
import type { PubSub } from '../platform/pubsub/pubsub.ts';
import type { ReferenceData } from '../seed/reference-data.ts';
import { writeObservation } from '../storefront/catalog-writer.ts';
import { writeLegacySummary } from '../storefront/legacy-summary.ts';
import {
  recordFailure,
  recordSuccess,
  type ObservationFailure,
} from '../storefront/observation-record.ts';
import {
  createStorefrontReader,
  observeStorefront,
  validateStorefront,
} from '../storefront/read-storefront.ts';
import { nameFirst, type StorefrontClient } from '../storefront/storefront-client.ts';
import { StorefrontFailure } from '../storefront/storefront-failure.ts';
import { saveScreenshot } from './screenshot/screenshot-store.ts';
import type { Screenshotter } from './screenshot/take-screenshot.ts';
import { publishScrape } from './scrape-events.ts';
import { advanceScrape, finishScrape, type ScrapeOutcome } from './scrape-lifecycle.ts';
import type { ScrapeRecord } from './scrape-record.ts';
import { ensureMonthPartitions } from '../platform/database/month-partitions.ts';
import { inTransaction } from '../platform/database/transaction.ts';

export const SCRAPE_TASK = 'scrape-store';
/** attempts of a scrape job before its request fails (only faults of ours are retried) */
export const SCRAPE_MAX_ATTEMPTS = 3;

/** host: the name the caller gave, the domain or its www. form (asked first, then the other form) */
const Payload = z.object({ requestId: z.uuid(), host: z.string().optional() });

export interface ScrapeTaskDeps {
  pool: pg.Pool;
  legacy: LegacyStore;
  pubsub: PubSub;
  logger: Logger;
  storefronts: StorefrontClient;
  reference: ReferenceData;
  clock: () => Date;
  webhookMaxAttempts: number;
  screenshots: Screenshotter;
  /** the service's own URL of a store's screenshot */
  screenshotUrl: (domain: string) => string;
  /** offer the sites a scraped homepage links to as discovery candidates */
  discoverLinks: boolean;
}

export function scrapeTask(deps: ScrapeTaskDeps) {
  const publish = async (record: ScrapeRecord | null) => {
    if (record) await publishScrape(deps.pubsub, deps.logger, record);
    return record;
  };
  /** Ends the request; a failure is also a failed observation of the domain (a catalog store backs off, or vanishes). */
  const finish = async (
    id: string,
    outcome: ScrapeOutcome,
    observed?: { domain: string; startedAt: Date; failure: ObservationFailure },
  ) =>
    publish(
      await inTransaction(deps.pool, async (client) => {
        const now = deps.clock();
        if (observed) {
          const {
            rows: [store],
          } = await client.query<{ id: number }>(
            'SELECT id FROM stores WHERE domain = $1 FOR UPDATE',
            [observed.domain],
          );
          await recordFailure(
            client,
            { storeId: store?.id ?? null, domain: observed.domain },
            observed.failure,
            {
              trigger: 'scrape',
              startedAt: observed.startedAt,
              now,
            },
          );
        }
        return finishScrape(client, id, outcome, now, deps.webhookMaxAttempts);
      }),
    );

  return async (payload: unknown, helpers: JobHelpers): Promise<void> => {
    const { requestId, host } = Payload.parse(payload);
    const log = deps.logger.child({ scrapeId: requestId, attempt: helpers.job.attempts });
    const startedAt = deps.clock();
    const validating = await publish(
      await advanceScrape(deps.pool, requestId, 'validating', startedAt),
    );
    if (!validating) return; // ended already: a duplicate or late job
    try {
      const reader = await createStorefrontReader(
        deps.storefronts,
        deps.pool,
        deps.reference.vocabulary.dropshipPhrases,
      );
      if (host) nameFirst(deps.storefronts, validating.domain, host);
      const storefront = await validateStorefront(reader, validating.domain);
      if (!(await publish(await advanceScrape(deps.pool, requestId, 'scraping', deps.clock()))))
        return;
      const observation = await observeStorefront(reader, storefront);
      const screenshot = await deps.screenshots.capture(observation.domain, log);
      const legacyId = await writeLegacySummary(
        deps,
        observation,
        screenshot ? deps.screenshotUrl(observation.domain) : null,
      );
      await ensureMonthPartitions(deps.pool, deps.clock());
      const done = await inTransaction(deps.pool, async (client) => {
        const now = deps.clock();
        const written = await writeObservation(client, observation, {
          now,
          reference: deps.reference,
          legacyId,
        });
        await recordSuccess(client, written, observation, {
          trigger: 'scrape',
          startedAt,
          now,
          discoverLinks: deps.discoverLinks,
        });
        if (screenshot) await saveScreenshot(client, written.storeId, screenshot, now);
        return finishScrape(
          client,
          requestId,
          { status: 'done', storeId: written.storeId },
          now,
          deps.webhookMaxAttempts,
        );
      });
      await publish(done);
      log.info(
        {
          domain: observation.domain,
          products: observation.products.length,
          apps: observation.apps.length,
        },
        'scrape done',
      );
    } catch (error) {
      if (error instanceof StorefrontFailure) {
        log.info({ reason: error.message }, 'scrape failed');
        await finish(
          requestId,
          { status: 'failed', reason: error.message, code: error.kind },
          { domain: validating.domain, startedAt, failure: error },
        );
        return;
      }
      if (helpers.job.attempts >= helpers.job.max_attempts) {
        log.error({ err: error }, 'scrape failed on its last attempt');
        const reason = `internal error after ${helpers.job.attempts} attempts; try again later`;
        await finish(
          requestId,
          { status: 'failed', reason, code: 'internal' },
          { domain: validating.domain, startedAt, failure: { kind: 'internal', message: reason } },
        );
        return;
      }
      throw error;
    }
  };
}
