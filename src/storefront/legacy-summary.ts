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

/** Upserts the store's legacy summary and returns its legacy id; `screenshotUrl` null keeps the one it has. */
export async function writeLegacySummary(
  deps: LegacySummaryDeps,
  observation: Pick<
    StorefrontObservation,
    'domain' | 'name' | 'description' | 'socials' | 'emails'
  >,
  screenshotUrl: string | null,
): Promise<string> {
  const existing = (await deps.legacy.findByDomains([observation.domain])).get(observation.domain);
  const {
    rows: [store],
  } = await deps.pool.query<{ legacy_id: string | null }>(
    'SELECT legacy_id FROM stores WHERE domain = $1',
    [observation.domain],
  );
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
