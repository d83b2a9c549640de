// The scheduled re-observation of one store: read its storefront as a scrape does (src/storefront),
// then one transaction writes what it found (the store's row with its modeled figures recomputed,
// products, change records, today's history snapshot), its next time and the log line. The job
// carries its claim (work-queue.ts): a job whose claim is no longer the store's (observed by a
// scrape meanwhile, released by a sweep, the store deleted) does nothing, so a job run twice (a
// worker killed mid-observation) never writes twice. A storefront that cannot be read is recorded
// as a failed observation (the store backs off, or vanishes), unless it moved to a host serving the
// same shop, where it is followed (follow-move.ts); any other error is ours and the job
// is retried, its last attempt recorded as an internal failure. Either way the queue is topped up.
import type { JobHelpers } from 'graphile-worker';
import { z } from 'zod';
import { ensureMonthPartitions } from '../platform/database/month-partitions.ts';
import { inTransaction } from '../platform/database/transaction.ts';
import type { Queryable } from '../platform/jobs/job-queue.ts';
import { writeObservation } from '../storefront/catalog-writer.ts';
import { writeLegacySummary } from '../storefront/legacy-summary.ts';
import { publishStoreObserved } from '../storefront/observation-events.ts';
import {
  recordFailure,
  recordSuccess,
  type ObservationFailure,
} from '../storefront/observation-record.ts';
import { observeStorefront, validateStorefront } from '../storefront/read-storefront.ts';
import { StorefrontFailure } from '../storefront/storefront-failure.ts';
import { readerOf, type CatalogDeps } from './catalog-deps.ts';
import { followMove } from './follow-move.ts';
import { topUp } from './work-queue.ts';

const Payload = z.object({ storeId: z.number().int().positive(), claim: z.iso.datetime() });

/**
 * Whether the store's claim is still `claim`, locking the store's row, then its schedule row, for
 * the caller's transaction (the order every observation writer locks them in: no deadlock with a scrape).
 */
async function holdsClaim(db: Queryable, storeId: number, claim: string): Promise<boolean> {
  await db.query('SELECT 1 FROM stores WHERE id = $1 FOR UPDATE', [storeId]);
  const { rows } = await db.query(
    'SELECT 1 FROM observation_schedule WHERE store_id = $1 AND queued_at = $2::timestamptz FOR UPDATE',
    [storeId, claim],
  );
  return rows.length > 0;
}

export function observeStoreTask(deps: CatalogDeps) {
  return async (payload: unknown, helpers: JobHelpers): Promise<void> => {
    const { storeId, claim } = Payload.parse(payload);
    const {
      rows: [store],
    } = await deps.pool.query<{ domain: string }>(
      `SELECT s.domain FROM observation_schedule o JOIN stores s ON s.id = o.store_id WHERE o.store_id = $1 AND o.queued_at = $2::timestamptz`,
      [storeId, claim],
    );
    if (!store) return; // the claim ended: observed meanwhile, released, or the store is gone
    const log = deps.logger.child({ storeId, domain: store.domain, attempt: helpers.job.attempts });
    const startedAt = deps.clock();
    const context = (now: Date) => ({
      trigger: 'scheduled' as const,
      startedAt,
      now,
      worker: deps.workerId,
      discoverLinks: deps.settings.discoverLinks,
    });
    const fail = async (failure: ObservationFailure) => {
      const recorded = await inTransaction(deps.pool, async (client) => {
        if (!(await holdsClaim(client, storeId, claim))) return false;
        await recordFailure(
          client,
          { storeId, domain: store.domain },
          failure,
          context(deps.clock()),
        );
        return true;
      });
      // the profile shows the store's presence
      if (recorded) await publishStoreObserved(deps.pubsub, deps.logger, store.domain);
    };
    try {
      const reader = await readerOf(deps);
      const observation = await observeStorefront(
        reader,
        await validateStorefront(reader, store.domain),
      );
      const legacyId = await writeLegacySummary(deps, observation, null);
      await ensureMonthPartitions(deps.pool, deps.clock());
      const changes = await inTransaction(deps.pool, async (client) => {
        if (!(await holdsClaim(client, storeId, claim))) return null;
        const now = deps.clock();
        const written = await writeObservation(client, observation, {
          now,
          reference: deps.reference,
          legacyId,
        });
        await recordSuccess(client, written, observation, context(now));
        return written.changes;
      });
      log.debug(
        { changes, products: observation.products.length },
        changes === null ? 'observation dropped: claim ended' : 'store observed',
      );
      if (changes !== null) await publishStoreObserved(deps.pubsub, deps.logger, store.domain);
    } catch (error) {
      if (error instanceof StorefrontFailure) {
        log.debug({ kind: error.kind, reason: error.message }, 'observation failed');
        const movedTo =
          error.kind === 'moved'
            ? await followMove(
                deps,
                { storeId, domain: store.domain, holds: (db) => holdsClaim(db, storeId, claim) },
                error,
                context,
              )
            : null;
        if (movedTo) {
          log.info({ movedTo }, 'store moved: followed to its new host');
          await publishStoreObserved(deps.pubsub, deps.logger, movedTo);
        } else await fail(error);
      } else if (helpers.job.attempts >= helpers.job.max_attempts) {
        log.error({ err: error }, 'observation failed on its last attempt');
        await fail({
          kind: 'internal',
          message: `internal error after ${helpers.job.attempts} attempts`,
        });
      } else {
        throw error;
      }
    }
    await topUp(
      deps.pool,
      deps.clock(),
      deps.settings.globalConcurrency,
      deps.settings.discoveryBudget,
    );
  };
}
