// The validation of one discovery candidate (catalog_candidates): it enters the catalog only as a
// storefront that answers as one (a Shopify homepage and a products.json product list, read with
// the crawler's manners), and only once: not when the catalog holds its canonical domain, and not
// when it is a store the catalog holds under another name (the same <handle>.myshopify.com, from
// the homepage's Shopify.shop). A candidate that redirects to another host is not taken under its
// own name: the new host is offered instead. An accepted candidate is observed and written like
// any observation, and is scheduled from then on. Busy or unreachable candidates are tried again
// later (DISCOVERY_ATTEMPTS in all); anything else that fails is rejected with its reason.
import type { JobHelpers } from 'graphile-worker';
import { z } from 'zod';
import { ensureMonthPartitions } from '../platform/database/month-partitions.ts';
import { inTransaction } from '../platform/database/transaction.ts';
import type { Queryable } from '../platform/jobs/job-queue.ts';
import { writeObservation } from '../storefront/catalog-writer.ts';
import { writeLegacySummary } from '../storefront/legacy-summary.ts';
import { recordFailure, recordSuccess } from '../storefront/observation-record.ts';
import { observeStorefront, validateStorefront } from '../storefront/read-storefront.ts';
import { StorefrontFailure, type StorefrontFailureKind } from '../storefront/storefront-failure.ts';
import { readerOf, type CatalogDeps } from './catalog-deps.ts';
import { topUp } from './work-queue.ts';

const Payload = z.object({ domain: z.string().min(1).max(253), claim: z.iso.datetime() });

export const DISCOVERY_ATTEMPTS = 3;
const RETRY_MINUTES = 15;
/** answers that say "not now" rather than "not a storefront" */
const TRANSIENT: ReadonlySet<StorefrontFailureKind | 'internal'> = new Set([
  'unreachable',
  'rate_limited',
  'server_error',
  'password_protected',
  'internal',
]);

type Verdict =
  | { status: 'accepted' | 'duplicate'; storeId: number; reason: string | null }
  | { status: 'rejected'; reason: string }
  | { status: 'pending'; reason: string; retryAt: Date };

/** The store the catalog already holds under `domain` or under the same myshopify.com name, if any. */
async function existingStore(
  db: Queryable,
  domain: string,
  myshopifyDomain: string | null,
): Promise<{ id: number; domain: string } | undefined> {
  const {
    rows: [store],
  } = await db.query<{ id: number; domain: string }>(
    `SELECT s.id, s.domain FROM stores s WHERE s.domain = $1 OR s.domain = $2
     UNION ALL
     SELECT s.id, s.domain FROM observation_schedule o JOIN stores s ON s.id = o.store_id WHERE o.myshopify_domain = $2
     LIMIT 1`,
    [domain, myshopifyDomain],
  );
  return store;
}

export function discoverTask(deps: CatalogDeps) {
  /** Ends the candidate's claim with its verdict; false when the claim had already ended. */
  const settle = (db: Queryable, domain: string, claim: string, verdict: Verdict, now: Date) =>
    db
      .query(
        `UPDATE catalog_candidates SET status = $3::candidate_status, reason = $4, store_id = $5, attempts = attempts + 1,
                next_at = COALESCE($6, next_at), updated_at = $7
          WHERE domain = $1 AND status = 'queued' AND updated_at = $2::timestamptz`,
        [
          domain,
          claim,
          verdict.status,
          verdict.reason?.slice(0, 1_000) ?? null,
          'storeId' in verdict ? verdict.storeId : null,
          verdict.status === 'pending' ? verdict.retryAt : null,
          now,
        ],
      )
      .then((result) => (result.rowCount ?? 0) > 0);

  return async (payload: unknown, helpers: JobHelpers): Promise<void> => {
    const { domain, claim } = Payload.parse(payload);
    const {
      rows: [candidate],
    } = await deps.pool.query<{ attempts: number }>(
      `SELECT attempts FROM catalog_candidates WHERE domain = $1 AND status = 'queued' AND updated_at = $2::timestamptz`,
      [domain, claim],
    );
    if (!candidate) return; // the claim ended (a job run twice)
    const log = deps.logger.child({ candidate: domain, attempt: helpers.job.attempts });
    const startedAt = deps.clock();
    const failed = async (
      kind: StorefrontFailureKind | 'internal',
      message: string,
      failure: StorefrontFailure | null,
    ) => {
      const now = deps.clock();
      const retry = TRANSIENT.has(kind) && candidate.attempts + 1 < DISCOVERY_ATTEMPTS;
      // never before the Retry-After the storefront sent (kept in the candidate's row: it outlives a restart)
      const waitMs = Math.max(
        RETRY_MINUTES * 60_000 * 2 ** candidate.attempts,
        (failure?.details.retryAfterSeconds ?? 0) * 1000,
      );
      const verdict: Verdict = retry
        ? { status: 'pending', reason: message, retryAt: new Date(now.getTime() + waitMs) }
        : {
            status: 'rejected',
            reason: kind === 'moved' ? `${message}; the new host is offered instead` : message,
          };
      await inTransaction(deps.pool, async (client) => {
        if (!(await settle(client, domain, claim, verdict, now))) return;
        // a moved candidate offers its new host (recordFailure does, as for a moved store)
        await recordFailure(
          client,
          { storeId: null, domain },
          failure ?? { kind: 'internal', message },
          {
            trigger: 'discovery',
            startedAt,
            now,
            worker: deps.workerId,
          },
        );
      });
      log.debug({ kind, reason: message, verdict: verdict.status }, 'candidate not taken');
    };

    try {
      const already = await existingStore(deps.pool, domain, null);
      if (already) {
        await settle(
          deps.pool,
          domain,
          claim,
          {
            status: 'duplicate',
            storeId: already.id,
            reason: `the catalog holds ${already.domain}`,
          },
          deps.clock(),
        );
      } else {
        const reader = await readerOf(deps);
        const observation = await observeStorefront(
          reader,
          await validateStorefront(reader, domain),
        );
        const legacyId = await writeLegacySummary(deps, observation, null);
        await ensureMonthPartitions(deps.pool, deps.clock());
        const verdict = await inTransaction(deps.pool, async (client): Promise<Verdict | null> => {
          // one at a time per myshopify.com name: two names of one store validated at once are not both taken in
          await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [
            `catalog-store:${observation.myshopifyDomain ?? domain}`,
          ]);
          const now = deps.clock();
          const same = await existingStore(client, domain, observation.myshopifyDomain);
          if (same) {
            const verdict: Verdict = {
              status: 'duplicate',
              storeId: same.id,
              reason: `the same store as ${same.domain} (${observation.myshopifyDomain ?? domain})`,
            };
            return (await settle(client, domain, claim, verdict, now)) ? verdict : null;
          }
          const written = await writeObservation(client, observation, {
            now,
            reference: deps.reference,
            legacyId,
          });
          const verdict: Verdict = { status: 'accepted', storeId: written.storeId, reason: null };
          if (!(await settle(client, domain, claim, verdict, now))) throw new ClaimEnded();
          await recordSuccess(client, written, observation, {
            trigger: 'discovery',
            startedAt,
            now,
            worker: deps.workerId,
            discoverLinks: deps.settings.discoverLinks,
          });
          return verdict;
        }).catch((error: unknown) => {
          if (error instanceof ClaimEnded) return null;
          throw error;
        });
        log.debug({ verdict: verdict?.status ?? 'claim ended' }, 'candidate validated');
      }
    } catch (error) {
      if (error instanceof StorefrontFailure) await failed(error.kind, error.message, error);
      else if (helpers.job.attempts >= helpers.job.max_attempts) {
        log.error({ err: error }, 'candidate validation failed on its last attempt');
        await failed('internal', `internal error after ${helpers.job.attempts} attempts`, null);
      } else throw error;
    }
    await topUp(
      deps.pool,
      deps.clock(),
      deps.settings.globalConcurrency,
      deps.settings.discoveryBudget,
    );
  };
}

/** Rolls back a discovery write whose claim ended while it read the storefront (the job ran twice). */
class ClaimEnded extends Error {}
