// Refreshes a watched store after each probe, reading its storefront the way a scrape does
// (src/storefront): its homepage (the apps it runs, by the catalog's fingerprints) and its
// products.json catalog. The observation is written by the catalog's one writer, as a scrape's is
// (storefront/catalog-writer.ts and observation-record.ts): the store's row and modeled figures,
// its products, app installs and change records against the previous observation, today's history
// row, lastScrapedAt and its schedule, in one transaction that also gives every watch on the store
// (all accounts) an app_change insight per app installed or uninstalled. A store the catalog lists
// but never observed gets its baseline and no changes. Product price changes of tracked variants
// are the probe's price_change insights, not this file's.
import type pg from 'pg';
import type { LegacyStore } from '../../platform/legacy/port.ts';
import type { Logger } from '../../platform/logger.ts';
import type { PubSub } from '../../platform/pubsub/pubsub.ts';
import type { ReferenceData } from '../../seed/reference-data.ts';
import { writeObservation } from '../../storefront/catalog-writer.ts';
import { writeLegacySummary } from '../../storefront/legacy-summary.ts';
import { publishStoreObserved } from '../../storefront/observation-events.ts';
import { recordSuccess } from '../../storefront/observation-record.ts';
import {
  createStorefrontReader,
  observeStorefront,
  validateStorefront,
  type StorefrontObservation,
  type StorefrontReader,
} from '../../storefront/read-storefront.ts';
import type { StorefrontClient } from '../../storefront/storefront-client.ts';
import { StorefrontFailure } from '../../storefront/storefront-failure.ts';
import { ensureMonthPartitions } from '../../platform/database/month-partitions.ts';
import { inTransaction } from '../../platform/database/transaction.ts';
import type { WatchRecord } from '../watch-record.ts';
import { appChangeInsights, type AppChangeInsight } from './app-change-insight.ts';

export interface WatchedStoreRefreshDeps {
  pool: pg.Pool;
  legacy: LegacyStore;
  pubsub: PubSub;
  storefronts: StorefrontClient;
  reference: ReferenceData;
  clock: () => Date;
  logger: Logger;
  /** offer the sites the homepage links to as discovery candidates (CATALOG_DISCOVER_LINKS) */
  discoverLinks: boolean;
}

export interface StorefrontChanges {
  /** apps installed plus apps uninstalled since the previous observation */
  appChanges: number;
  /** price changes, new and removed SKUs since the previous observation */
  productChanges: number;
}

/**
 * The refresh the probe task calls after each probe. A storefront that cannot be read (down, not
 * Shopify any more, malformed JSON) is logged and counts no changes: the next probe tries again,
 * and the catalog keeps its last observation. Any other error is ours and is thrown.
 */
export function createWatchedStoreRefresh(
  deps: WatchedStoreRefreshDeps,
): (watch: WatchRecord) => Promise<StorefrontChanges> {
  return async (watch) => {
    const log = deps.logger.child({ signalId: watch.id, domain: watch.domain });
    const startedAt = deps.clock();
    const reader = await createStorefrontReader(
      deps.storefronts,
      deps.pool,
      deps.reference.vocabulary.dropshipPhrases,
    );
    const observation = await readStorefront(reader, watch.domain, log);
    if (!observation) return { appChanges: 0, productChanges: 0 };

    const legacyId = await writeLegacySummary(deps, observation, null);
    await ensureMonthPartitions(deps.pool, deps.clock());
    const changes = await inTransaction(deps.pool, async (client) => {
      const now = deps.clock();
      // the store's row lock, taken first as every observation writer takes it
      const {
        rows: [store],
      } = await client.query<{ id: number }>('SELECT id FROM stores WHERE id = $1 FOR UPDATE', [
        watch.storeId,
      ]);
      if (!store) return null; // the store left the catalog (its watches with it) since the probe began
      const previousApps = await appNamesOf(client, store.id);
      const written = await writeObservation(client, observation, {
        now,
        reference: deps.reference,
        legacyId,
      });
      await recordSuccess(client, written, observation, {
        trigger: 'probe',
        startedAt,
        now,
        discoverLinks: deps.discoverLinks,
      });
      const appNames = new Map([
        ...previousApps,
        ...observation.apps.map((app) => [app.slug, app.name] as const),
      ]);
      await insertAppChangeInsights(
        client,
        watch,
        appChangeInsights(watch.domain, written.changeRecords, appNames, now),
      );
      return written.changeRecords;
    });
    if (changes === null) return { appChanges: 0, productChanges: 0 };
    await publishStoreObserved(deps.pubsub, deps.logger, watch.domain);

    const result = {
      appChanges: changes.filter((c) => c.entity === 'app').length,
      productChanges: changes.filter((c) => c.entity === 'product').length,
    };
    log.debug(result, 'storefront observed');
    return result;
  };
}

/** slug -> name of the apps the store ran before this observation (an uninstalled app's insight names it) */
async function appNamesOf(client: pg.PoolClient, storeId: number): Promise<Map<string, string>> {
  const { rows } = await client.query<{ slug: string; name: string }>(
    'SELECT a.slug, a.name FROM store_apps sa JOIN apps a ON a.id = sa.app_id WHERE sa.store_id = $1',
    [storeId],
  );
  return new Map(rows.map((r) => [r.slug, r.name]));
}

async function readStorefront(
  reader: StorefrontReader,
  domain: string,
  log: Logger,
): Promise<StorefrontObservation | null> {
  try {
    return await observeStorefront(reader, await validateStorefront(reader, domain));
  } catch (error) {
    if (!(error instanceof StorefrontFailure)) throw error;
    log.warn({ reason: error.message }, 'storefront observation skipped');
    return null;
  }
}

/** One insight per app change for every watch on the store: tracked ones, and the probed one even when paused. */
async function insertAppChangeInsights(
  client: pg.PoolClient,
  watch: WatchRecord,
  insights: readonly AppChangeInsight[],
): Promise<void> {
  if (insights.length === 0) return;
  await client.query(
    `INSERT INTO insights (signal_id, account_id, kind, title, body, data, created_at)
     SELECT w.id, w.account_id, 'app_change', i.title, i.body, i.data, i."createdAt"
       FROM signals w
       CROSS JOIN jsonb_to_recordset($3::jsonb) AS i(title text, body text, data jsonb, "createdAt" timestamptz, position int)
      WHERE w.store_id = $1 AND (w.status = 'tracked' OR w.id = $2)
      ORDER BY w.id, i.position`,
    [
      watch.storeId,
      watch.id,
      JSON.stringify(insights.map((insight, position) => ({ ...insight, position }))),
    ],
  );
}
