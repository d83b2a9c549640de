// Observations for the alert tests: a store observed through the one observation writer
// (writeObservation), as a scrape, a re-observation, a discovery or a probe writes it.
import { storefrontObservation } from '../support/storefront-observation.ts';
import { createHash } from 'node:crypto';
import type pg from 'pg';
import { upkeepMonthPartitions } from '../../src/platform/database/month-partitions.ts';
import type { Services } from '../../src/platform/services.ts';
import { loadReferenceData } from '../../src/seed/reference-data.ts';
import { writeObservation } from '../../src/storefront/catalog-writer.ts';
import type { StorefrontObservation } from '../../src/storefront/read-storefront.ts';

const reference = loadReferenceData();
/** a legacy id per domain (24 hex characters, unique as the catalog requires) */
const legacyIdOf = (domain: string) =>
  createHash('sha256').update(domain).digest('hex').slice(0, 24);

export interface ObservedStore {
  domain: string;
  countryCode?: string;
  /** app slugs of the catalog's apps the storefront runs */
  apps: string[];
}

export async function observe(pool: pg.Pool, store: ObservedStore, now: Date): Promise<void> {
  const { rows: apps } = await pool.query<{ id: number; slug: string; name: string }>(
    'SELECT id, slug, name FROM apps WHERE slug = ANY($1::text[])',
    [store.apps],
  );
  if (apps.length !== store.apps.length) throw new Error(`unknown apps in ${store.apps}`);
  const observation: StorefrontObservation = storefrontObservation({
    domain: store.domain,
    countryCode: store.countryCode ?? 'US',
    apps: apps.map((a) => ({ ...a, category: null, patterns: [] })),
  });
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await writeObservation(client, observation, {
      now,
      reference,
      legacyId: legacyIdOf(store.domain),
    });
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  } finally {
    client.release();
  }
}

/**
 * The history partitions of the services clock's months, made now rather than at the worker's
 * first sweep (an observation writes today's history row into them).
 */
export async function partitionsFor(services: Services): Promise<void> {
  await upkeepMonthPartitions(services.db.pool, services.clock!(), {
    history: services.config.HISTORY_RETENTION_MONTHS,
    signals: services.config.SIGNALS_RETENTION_MONTHS,
  });
}
