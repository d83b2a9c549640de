// The legacy store's part of an observation: the store's summary (title, description, socials,
// emails, screenshot URL) upserted by domain, under the legacy id the store already has (in the
// catalog or the legacy store), else a new one. Written before the catalog transaction, which
// records the same legacy id on the store row.
import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import type { LegacyStore } from '../platform/legacy/port.ts';
import type { StorefrontObservation } from './read-storefront.ts';

export interface LegacySummaryDeps {
  pool: Pick<pg.Pool, 'query'>;
  legacy: LegacyStore;
  clock: () => Date;
}

/**
 * Upserts the store's legacy summary and returns its legacy id; `screenshotUrl` null keeps the one it has.
 * @param storeId the catalog store observed, when its row may still carry another domain (a store moving to this one)
 */
export async function writeLegacySummary(
  deps: LegacySummaryDeps,
  observation: Pick<
    StorefrontObservation,
    'domain' | 'name' | 'description' | 'socials' | 'emails'
  >,
  screenshotUrl: string | null,
  storeId?: number,
): Promise<string> {
  let existing = (await deps.legacy.findByDomains([observation.domain])).get(observation.domain);
  const {
    rows: [store],
  } = await deps.pool.query<{ legacy_id: string | null }>(
    storeId === undefined
      ? 'SELECT legacy_id FROM stores WHERE domain = $1'
      : 'SELECT legacy_id FROM stores WHERE id = $1',
    [storeId ?? observation.domain],
  );
  // a store that moved keeps its legacy id: its summary, still at an old domain, moves here with it
  if (store?.legacy_id && existing?.legacyId !== store.legacy_id) {
    const held = (await deps.legacy.findByLegacyIds([store.legacy_id])).get(store.legacy_id);
    if (held && held.domain !== observation.domain) {
      await deps.legacy.moveDomain(held.domain, observation.domain);
      existing = held;
    }
  }
  const legacyId = store?.legacy_id ?? existing?.legacyId ?? newLegacyId(deps.clock());
  await deps.legacy.upsert({
    domain: observation.domain,
    legacyId,
    title: observation.name,
    description: observation.description,
    screenshotUrl: screenshotUrl ?? existing?.screenshotUrl ?? null,
    socials: observation.socials,
    emails: observation.emails,
    phones: existing?.phones ?? [],
    lastCrawledAt: deps.clock().toISOString(),
  });
  return legacyId;
}

/** Like a MongoDB ObjectId: creation seconds, then random bytes (24 hex characters). */
const newLegacyId = (now: Date) =>
  Math.floor(now.getTime() / 1000)
    .toString(16)
    .padStart(8, '0') + randomBytes(8).toString('hex');
