// A catalog store whose storefront now redirects (301) to another host is followed there when that
// host serves the same shop (the same <handle>.myshopify.com as the store last showed): the store
// keeps its id, history, watches and apps, takes the new host as its domain, its old domain leads
// to it (store_moves), a change record says it moved, and the observation made at the new host is
// written like any other. A new host serving another shop, or one the catalog already holds as a
// store of its own, is not followed: the move is recorded as a failed observation.
import { ensureMonthPartitions } from '../platform/database/month-partitions.ts';
import { inTransaction } from '../platform/database/transaction.ts';
import type { Queryable } from '../platform/jobs/job-queue.ts';
import { canonicalCandidate } from '../storefront/catalog-candidates.sql.ts';
import { writeObservation } from '../storefront/catalog-writer.ts';
import { writeLegacySummary } from '../storefront/legacy-summary.ts';
import { recordSuccess, type ObservationContext } from '../storefront/observation-record.ts';
import {
  observeStorefront,
  validateStorefront,
  type StorefrontObservation,
} from '../storefront/read-storefront.ts';
import { StorefrontFailure } from '../storefront/storefront-failure.ts';
import { recordMove } from '../stores/store-moves.sql.ts';
import { readerOf, type CatalogDeps } from './catalog-deps.ts';

export interface MovedStore {
  storeId: number;
  domain: string;
  /** locks the store for the write and says whether this observation may still write it (its claim) */
  holds(db: Queryable): Promise<boolean>;
}

/** Follows `failure` (kind moved) of `store`; the new domain when the store moved there, null when not followed. */
export async function followMove(
  deps: CatalogDeps,
  store: MovedStore,
  failure: StorefrontFailure,
  context: (now: Date) => ObservationContext,
): Promise<string | null> {
  const to = failure.details.movedTo ? canonicalCandidate(failure.details.movedTo) : null;
  if (!to || to === store.domain) return null;
  const {
    rows: [schedule],
  } = await deps.pool.query<{ myshopify_domain: string | null }>(
    'SELECT myshopify_domain FROM observation_schedule WHERE store_id = $1',
    [store.storeId],
  );
  const shop = schedule?.myshopify_domain;
  if (!shop) return null;
  let observation: StorefrontObservation;
  try {
    const reader = await readerOf(deps);
    observation = await observeStorefront(reader, await validateStorefront(reader, to));
  } catch (error) {
    if (error instanceof StorefrontFailure) return null;
    throw error;
  }
  if (observation.myshopifyDomain !== shop) return null;
  const legacyId = await writeLegacySummary(deps, observation, null, store.storeId);
  await ensureMonthPartitions(deps.pool, deps.clock());
  return inTransaction(deps.pool, async (client) => {
    if (!(await store.holds(client))) return null;
    await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [
      `catalog-store:${shop}`,
    ]);
    const {
      rows: [taken],
    } = await client.query<{ id: number }>('SELECT id FROM stores WHERE domain = $1', [to]);
    if (taken && taken.id !== store.storeId) return null;
    const now = deps.clock();
    await recordMove(client, { storeId: store.storeId, from: store.domain, to, now });
    const written = await writeObservation(client, observation, {
      now,
      reference: deps.reference,
      legacyId,
    });
    if (written.storeId !== store.storeId)
      throw new Error(`the move of store ${store.storeId} to ${to} wrote store ${written.storeId}`);
    await recordSuccess(client, written, observation, context(now));
    // the new host, offered to discovery when the move was first seen, is this store
    await client.query(
      `UPDATE catalog_candidates SET status = 'duplicate', store_id = $2, reason = $3, updated_at = $4 WHERE domain = $1 AND status = 'pending'`,
      [to, store.storeId, `the store ${store.domain} moved here`, now],
    );
    return to;
  });
}
