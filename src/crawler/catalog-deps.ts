// What the catalog's jobs share in one worker process: the storefront client (per-host pacing and
// robots.txt shared with scrapes and Signals), the app fingerprints (reloaded every minute), the
// reference data the models read, and the settings this process runs the scheduler with.
import type pg from 'pg';
import type { LegacyStore } from '../platform/legacy/port.ts';
import type { Logger } from '../platform/logger.ts';
import type { PubSub } from '../platform/pubsub/pubsub.ts';
import type { ReferenceData } from '../seed/reference-data.ts';
import type { AppFingerprint } from '../storefront/app-fingerprints.ts';
import { MAX_PRODUCT_PAGES, type StorefrontReader } from '../storefront/read-storefront.ts';
import type { StorefrontClient } from '../storefront/storefront-client.ts';
import type { DiscoveryBudget } from './discovery-budget.ts';

export interface CatalogSettings {
  /** claims in flight at once across every worker process */
  globalConcurrency: number;
  /** observations this process runs at once */
  workerConcurrency: number;
  discoverLinks: boolean;
  discoveryBudget: DiscoveryBudget;
}

export interface CatalogDeps {
  pool: pg.Pool;
  legacy: LegacyStore;
  logger: Logger;
  pubsub: PubSub;
  storefronts: StorefrontClient;
  reference: ReferenceData;
  clock: () => Date;
  apps: () => Promise<AppFingerprint[]>;
  settings: CatalogSettings;
  /** this process in crawler_workers and observation_log */
  workerId: string;
}

export async function readerOf(deps: CatalogDeps): Promise<StorefrontReader> {
  return {
    client: deps.storefronts,
    apps: await deps.apps(),
    dropshipVocabulary: deps.reference.vocabulary.dropshipPhrases,
    maxProductPages: MAX_PRODUCT_PAGES,
  };
}
