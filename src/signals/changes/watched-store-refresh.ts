// Refreshes a watched store after each probe, reading its storefront the way a scrape does
// (src/storefront): its homepage (the apps it runs, by the catalog's fingerprints) and its
// products.json catalog, diffed against the catalog's previous observation of the store with the
// catalog's own diff. One transaction writes
// the products, the app installs and the change records, and gives every watch on the store (all
// accounts) an app_change insight per app installed or uninstalled. A store the catalog lists but
// never observed (no products, no apps) gets its baseline and no changes: claiming every app as
// just installed would be false. Product price changes of tracked variants are the probe's
// price_change insights, not this file's.
import type pg from 'pg';
import type { Logger } from '../../platform/logger.ts';
import { readPrevious, writeCatalog } from '../../storefront/catalog-writer.ts';
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
  storefronts: StorefrontClient;
  clock: () => Date;
  logger: Logger;
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
export function createWatchedStoreRefresh(deps: WatchedStoreRefreshDeps): (watch: WatchRecord) => Promise<StorefrontChanges> {
  return async (watch) => {
    const log = deps.logger.child({ signalId: watch.id, domain: watch.domain });
    // dropshipping phrases feed the store models, which a watch's refresh does not recompute
    const reader = await createStorefrontReader(deps.storefronts, deps.pool, []);
    const observation = await readStorefront(reader, watch.domain, log);
    if (!observation) return { appChanges: 0, productChanges: 0 };

    await ensureMonthPartitions(deps.pool, deps.clock());
    const changes = await inTransaction(deps.pool, async (client) => {
      const now = deps.clock();
      // the same row lock a scrape takes: a scrape and an observation of one store never interleave
      const { rows: [store] } = await client.query<{ id: number; theme_name: string | null }>(
        'SELECT id, theme_name FROM stores WHERE id = $1 FOR UPDATE',
        [watch.storeId],
      );
      if (!store) return []; // the store left the catalog (its watches with it) since the probe began
      const catalog = await readPrevious(client, store);
      const previous = catalog.products.size + catalog.apps.size > 0 ? catalog : null;
      const written = await writeCatalog(client, store.id, previous, { ...observation, currency: observation.currency ?? 'USD' }, now);
      await client.query(
        `UPDATE stores SET product_count = $2, best_seller_count = $3, app_count = $4, theme_name = COALESCE($5, theme_name), updated_at = $6
          WHERE id = $1`,
        [
          store.id,
          observation.products.length,
          observation.products.filter((p) => p.bestSellerRank !== null).length,
          observation.apps.length,
          observation.themeName,
          now,
        ],
      );
      const appNames = new Map([...catalog.apps].map(([slug, app]) => [slug, app.name]));
      for (const app of observation.apps) appNames.set(app.slug, app.name);
      await insertAppChangeInsights(client, watch, appChangeInsights(watch.domain, written, appNames, now));
      return written;
    });

    const result = {
      appChanges: changes.filter((c) => c.entity === 'app').length,
      productChanges: changes.filter((c) => c.entity === 'product').length,
    };
    log.debug(result, 'storefront observed');
    return result;
  };
}

async function readStorefront(reader: StorefrontReader, domain: string, log: Logger): Promise<StorefrontObservation | null> {
  try {
    return await observeStorefront(reader, await validateStorefront(reader, domain));
  } catch (error) {
    if (!(error instanceof StorefrontFailure)) throw error;
    log.warn({ reason: error.message }, 'storefront observation skipped');
    return null;
  }
}

/** One insight per app change for every watch on the store: tracked ones, and the probed one even when paused. */
async function insertAppChangeInsights(client: pg.PoolClient, watch: WatchRecord, insights: readonly AppChangeInsight[]): Promise<void> {
  if (insights.length === 0) return;
  await client.query(
    `INSERT INTO insights (signal_id, account_id, kind, title, body, data, created_at)
     SELECT w.id, w.account_id, 'app_change', i.title, i.body, i.data, i."createdAt"
       FROM signals w
       CROSS JOIN jsonb_to_recordset($3::jsonb) AS i(title text, body text, data jsonb, "createdAt" timestamptz, position int)
      WHERE w.store_id = $1 AND (w.status = 'tracked' OR w.id = $2)
      ORDER BY w.id, i.position`,
    [watch.storeId, watch.id, JSON.stringify(insights.map((insight, position) => ({ ...insight, position })))],
  );
}
