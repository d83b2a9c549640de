// The scrape job of one request: validating (the homepage answers and is a Shopify storefront),
// then scraping (its public JSON and, when a Chromium is available, a homepage screenshot), then one transaction that writes the catalog and ends the
// request (done, plus the webhook outbox row). A storefront that cannot be scraped fails the request
// with its reason; any other error is a fault of ours: the job is retried, and its last attempt
// fails the request. Every step is guarded by the request's state, so a job run twice (a worker that
// died mid-scrape) redoes the scrape from validating and never moves an ended request.
import { randomBytes } from 'node:crypto';
import type { JobHelpers } from 'graphile-worker';
import type pg from 'pg';
import { z } from 'zod';
import type { LegacyStore } from '../legacy/port.ts';
import type { Logger } from '../platform/logger.ts';
import type { PubSub } from '../platform/pubsub/pubsub.ts';
import type { ReferenceData } from '../seed/reference-data.ts';
import { writeObservation } from '../storefront/catalog-writer.ts';
import { createStorefrontReader, observeStorefront, validateStorefront, type StorefrontObservation } from '../storefront/read-storefront.ts';
import type { StorefrontClient } from '../storefront/storefront-client.ts';
import { StorefrontFailure } from '../storefront/storefront-failure.ts';
import { saveScreenshot } from './screenshot/screenshot-store.ts';
import type { Screenshot, Screenshotter } from './screenshot/take-screenshot.ts';
import { publishScrape } from './scrape-events.ts';
import { advanceScrape, finishScrape, type ScrapeOutcome } from './scrape-lifecycle.ts';
import type { ScrapeRecord } from './scrape-record.ts';
import { ensureMonthPartitions } from '../platform/database/month-partitions.ts';
import { inTransaction } from '../platform/database/transaction.ts';

export const SCRAPE_TASK = 'scrape-store';
/** attempts of a scrape job before its request fails (only faults of ours are retried) */
export const SCRAPE_MAX_ATTEMPTS = 3;

const Payload = z.object({ requestId: z.uuid() });

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
}

export function scrapeTask(deps: ScrapeTaskDeps) {
  const publish = async (record: ScrapeRecord | null) => {
    if (record) await publishScrape(deps.pubsub, deps.logger, record);
    return record;
  };
  const finish = async (id: string, outcome: ScrapeOutcome) =>
    publish(await inTransaction(deps.pool, (client) => finishScrape(client, id, outcome, deps.clock(), deps.webhookMaxAttempts)));

  return async (payload: unknown, helpers: JobHelpers): Promise<void> => {
    const { requestId } = Payload.parse(payload);
    const log = deps.logger.child({ scrapeId: requestId, attempt: helpers.job.attempts });
    const validating = await publish(await advanceScrape(deps.pool, requestId, 'validating', deps.clock()));
    if (!validating) return; // ended already: a duplicate or late job
    try {
      const reader = await createStorefrontReader(deps.storefronts, deps.pool, deps.reference.vocabulary.dropshipPhrases);
      const storefront = await validateStorefront(reader, validating.domain);
      if (!(await publish(await advanceScrape(deps.pool, requestId, 'scraping', deps.clock())))) return;
      const observation = await observeStorefront(reader, storefront);
      const screenshot = await deps.screenshots.capture(observation.domain, log);
      const legacyId = await writeLegacySummary(deps, observation, screenshot);
      await ensureMonthPartitions(deps.pool, deps.clock());
      const done = await inTransaction(deps.pool, async (client) => {
        const now = deps.clock();
        const written = await writeObservation(client, observation, { now, reference: deps.reference, legacyId });
        if (screenshot) await saveScreenshot(client, written.storeId, screenshot, now);
        return finishScrape(client, requestId, { status: 'done', storeId: written.storeId }, now, deps.webhookMaxAttempts);
      });
      await publish(done);
      log.info({ domain: observation.domain, products: observation.products.length, apps: observation.apps.length }, 'scrape done');
    } catch (error) {
      if (error instanceof StorefrontFailure) {
        log.info({ reason: error.message }, 'scrape failed');
        await finish(requestId, { status: 'failed', reason: error.message });
        return;
      }
      if (helpers.job.attempts >= helpers.job.max_attempts) {
        log.error({ err: error }, 'scrape failed on its last attempt');
        await finish(requestId, { status: 'failed', reason: `internal error after ${helpers.job.attempts} attempts; try again later` });
        return;
      }
      throw error;
    }
  };
}

/** Upserts the store's legacy summary (socials, emails, screenshot URL) and returns its legacy id, kept if it has one. */
async function writeLegacySummary(deps: ScrapeTaskDeps, observation: StorefrontObservation, screenshot: Screenshot | null): Promise<string> {
  const existing = (await deps.legacy.findByDomains([observation.domain])).get(observation.domain);
  const { rows: [store] } = await deps.pool.query<{ legacy_id: string | null }>('SELECT legacy_id FROM stores WHERE domain = $1', [
    observation.domain,
  ]);
  const legacyId = store?.legacy_id ?? existing?.legacyId ?? newLegacyId(deps.clock());
  await deps.legacy.upsert({
    domain: observation.domain,
    legacyId,
    title: observation.name,
    description: observation.description,
    screenshotUrl: screenshot ? deps.screenshotUrl(observation.domain) : (existing?.screenshotUrl ?? null),
    socials: observation.socials,
    emails: observation.emails,
    phones: existing?.phones ?? [],
    lastCrawledAt: deps.clock().toISOString(),
  });
  return legacyId;
}

/** Like a MongoDB ObjectId: creation seconds, then random bytes (24 hex characters). */
const newLegacyId = (now: Date) =>
  Math.floor(now.getTime() / 1000).toString(16).padStart(8, '0') + randomBytes(8).toString('hex');
