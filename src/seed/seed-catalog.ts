// Seeds the catalog with N synthetic stores through COPY, deterministically (same seed + same N on
// the same day = same data). Used by `npm run seed` (app/cli/seed.ts) and by `npm start` on an empty
// embedded database.
//
// How it loads, in ONE transaction (a failed or interrupted seed leaves the catalog as it was):
//  1. an advisory lock (one seed at a time), then --reset truncates the catalog; without --append a
//     non-empty catalog is refused;
//  2. the apps of data/apps.json are upserted (their ids are needed for store_apps);
//  3. when the load at least doubles the catalog (always on an empty one), the foreign keys,
//     child-table primary keys and secondary indexes of the loaded tables are dropped
//     (load-indexes.ts) and rebuilt after the data is in; smaller appends keep them;
//  4. stores are generated in chunks and streamed into COPY FROM STDIN, table by table
//     (load-stores.ts); the next chunk is generated while the previous one is being copied, so
//     memory stays flat and both cores work (this process generates, the PostgreSQL backend parses);
//  5. apps.install_count is recounted, sequences are moved past the new ids, ANALYZE;
//  6. the whole-catalog rollups (src/stores/rollups/) and the app trend rollups (src/apps/app-trend-rollups.ts)
//     are recomputed, so they commit with the load, COMMIT;
//  7. VACUUM stores, store_apps and products (their visibility maps serve the search counts, the app
//     filters and the title search's walks from the indexes alone), and
//     VACUUM FULL ANALYZE the search vocabularies (their counts were rewritten at every chunk).
//
// Legacy summaries: with no `legacy` option, or with `legacyIsJsonbTable`, they are COPYed straight
// into legacy_store_summaries (the embedded default's legacy store IS that table: same documents
// the Postgres adapter writes, canonical form). Otherwise they go through the LegacyStore port
// (upsertMany in batches, e.g. MongoDB); those writes are outside the transaction, idempotent by
// domain, and a --reset does not delete older documents from a port.
import pg from 'pg';
import type { LegacyStore } from '../platform/legacy/port.ts';
import type { Logger } from '../platform/logger.ts';
import { nextIds, recountAndAdvance, upsertApps } from './catalog-sql.ts';
import { STORE_CHILD_TABLES, type CatalogTable } from './catalog-tables.ts';
import { dropLoadIndexes, restoreLoadIndexes } from './load-indexes.ts';
import { ensureMonthRange } from '../platform/database/month-partitions.ts';
import { loadStores } from './load-stores.ts';
import { createSampler } from './reference-data.ts';
import { createSeedContext } from './seed-context.ts';
import { buildStoreRollups } from '../stores/rollups/store-rollups.ts';
import { rebuildAppTrendRollups } from '../apps/app-trend-rollups.ts';
import { transactionOn } from '../platform/database/transaction.ts';

export type SeedMode = 'refuse-if-not-empty' | 'append' | 'reset';

export interface SeedCatalogOptions {
  /** an open pool of the target database, or its URL (one of the two) */
  pool?: pg.Pool;
  url?: string;
  /** how many stores to add */
  stores: number;
  /** default 1; any string or number */
  seed?: string | number;
  /** default refuse-if-not-empty */
  mode?: SeedMode;
  /** the legacy store to write summaries to; absent = COPY into legacy_store_summaries */
  legacy?: LegacyStore;
  /** the given legacy store is the JSONB table of this same database: COPY into it directly */
  legacyIsJsonbTable?: boolean;
  /** auto (default): rebuild when the load at least doubles the catalog */
  rebuildIndexes?: 'auto' | 'always' | 'never';
  /** stores per chunk; default 10,000 */
  chunkSize?: number;
  /** the last history day; default today (UTC) */
  today?: Date;
  logger?: Logger;
  onProgress?: (progress: SeedProgress) => void;
}

export interface SeedProgress {
  phase: 'loading' | 'indexing' | 'analyzing';
  storesDone: number;
  storesTotal: number;
}

export interface SeedReport {
  seed: string | number;
  mode: SeedMode;
  stores: number;
  firstStoreId: number;
  lastStoreId: number;
  /** rows written by this run, per table */
  rows: Record<CatalogTable, number>;
  legacySummaries: { target: string; written: number };
  rebuiltIndexes: boolean;
  timingsMs: {
    load: number;
    indexes: number;
    finish: number;
    analyze: number;
    rollups: number;
    total: number;
  };
  /** pg_database_size after the run */
  databaseBytes: number;
}

export class SeedRefusedError extends Error {}

/** arbitrary constant: the advisory lock every seeding process takes */
const SEED_LOCK_KEY = 72_707_002;
const CATALOG_TABLES = ['stores', ...STORE_CHILD_TABLES, 'apps'] as const;

/** Stores in the catalog (a quick look before deciding to seed). */
export async function countCatalogStores(pool: Pick<pg.Pool, 'query'>): Promise<number> {
  const { rows } = await pool.query<{ n: string }>('SELECT count(*) AS n FROM stores');
  return Number(rows[0]!.n);
}

export async function seedCatalog(options: SeedCatalogOptions): Promise<SeedReport> {
  if (!Number.isInteger(options.stores) || options.stores < 0) {
    throw new RangeError(`stores must be a non-negative integer, got ${options.stores}`);
  }
  if (!options.pool && !options.url) throw new TypeError('seedCatalog needs a pool or a url');
  const ownPool = options.pool ? undefined : new pg.Pool({ connectionString: options.url, max: 1 });
  const pool = options.pool ?? ownPool!;
  const client = await pool.connect();
  try {
    return await seedOn(client, options);
  } finally {
    client.release();
    await ownPool?.end();
  }
}

/** What the transaction of a seed wrote, and how long its parts took. */
interface Loaded extends Omit<SeedReport, 'timingsMs' | 'databaseBytes'> {
  timingsMs: Omit<SeedReport['timingsMs'], 'total'>;
}

async function seedOn(client: pg.PoolClient, options: SeedCatalogOptions): Promise<SeedReport> {
  const started = performance.now();
  const log = options.logger?.child({ component: 'seed' });
  const loaded = await transactionOn(client, () => loadCatalog(client, options, log, started));
  // the visibility maps, so counts, app filters and title walks are index-only scans from the
  // first request on, not once autovacuum gets there; VACUUM cannot run inside the transaction
  const vacuumStarted = performance.now();
  await client.query('SET statement_timeout = 0');
  await client.query('VACUUM stores, store_apps, store_app_periods, products');
  // a trigger rewrote the vocabularies' counts at every chunk: rewritten whole, they shed the
  // dead rows every typo lookup would otherwise read
  await client.query('VACUUM (FULL, ANALYZE) store_search_vocabulary, product_search_vocabulary');
  await client.query('RESET statement_timeout');
  const vacuumMs = performance.now() - vacuumStarted;
  const { rows: size } = await client.query<{ bytes: string }>(
    'SELECT pg_database_size(current_database()) AS bytes',
  );
  const report: SeedReport = {
    ...loaded,
    timingsMs: {
      ...loaded.timingsMs,
      analyze: Math.round(loaded.timingsMs.analyze + vacuumMs),
      total: Math.round(performance.now() - started),
    },
    databaseBytes: Number(size[0]!.bytes),
  };
  log?.info(report, 'catalog seeded');
  return report;
}

/** Steps 1-6 of the header, on `client` inside the seed's transaction. */
async function loadCatalog(
  client: pg.PoolClient,
  options: SeedCatalogOptions,
  log: Logger | undefined,
  started: number,
): Promise<Loaded> {
  const seed = options.seed ?? 1;
  const mode = options.mode ?? 'refuse-if-not-empty';
  const chunkSize = options.chunkSize ?? 10_000;
  const copyLegacy = !options.legacy || options.legacyIsJsonbTable === true;
  const progress = (phase: SeedProgress['phase'], storesDone: number) =>
    options.onProgress?.({ phase, storesDone, storesTotal: options.stores });

  // the pool may carry a request-sized statement_timeout; a seed runs for minutes
  await client.query(`SET LOCAL statement_timeout = 0`);
  await client.query(`SET LOCAL idle_in_transaction_session_timeout = 0`);
  await client.query(`SET LOCAL maintenance_work_mem = '512MB'`);
  await client.query(`SET LOCAL synchronous_commit = off`);
  await client.query('SELECT pg_advisory_xact_lock($1)', [SEED_LOCK_KEY]);

  if (mode === 'reset') {
    // CASCADE: signals, ads and scrape requests reference catalog stores and go with them
    const truncated = [...CATALOG_TABLES, ...(copyLegacy ? ['legacy_store_summaries'] : [])];
    await client.query(`TRUNCATE ${truncated.join(', ')} RESTART IDENTITY CASCADE`);
  }
  const existingStores = await countCatalogStores(client);
  if (existingStores > 0 && mode === 'refuse-if-not-empty') {
    throw new SeedRefusedError(
      `the catalog already holds ${existingStores} stores; pass --append to add to it or --reset to replace it`,
    );
  }

  const sampler = createSampler();
  const appIds = await upsertApps(client, sampler);
  const ctx = createSeedContext({ seed, today: options.today, appIds, sampler });
  const ids = await nextIds(client);
  // the history and change records are partitioned by month: every month of the calendar needs its partition
  await ensureMonthRange(
    client,
    new Date(`${ctx.days[0]}T00:00:00Z`),
    new Date(`${ctx.days.at(-1)}T00:00:00Z`),
  );

  const rebuild =
    options.rebuildIndexes === 'always' ||
    ((options.rebuildIndexes ?? 'auto') === 'auto' &&
      options.stores > 0 &&
      options.stores >= existingStores);
  const loadedTables = [
    'stores',
    ...STORE_CHILD_TABLES,
    ...(copyLegacy ? ['legacy_store_summaries'] : []),
  ];
  const saved = rebuild ? await dropLoadIndexes(client, loadedTables, ['stores']) : [];
  log?.info(
    { stores: options.stores, seed, mode, rebuild, dropped: saved.length },
    'seeding the catalog',
  );

  const firstStoreId = ids.nextStoreId;
  const lastStoreId = firstStoreId + options.stores - 1;
  const { rows, legacyWritten } = await loadStores(client, ctx, ids, firstStoreId, lastStoreId, {
    chunkSize,
    copyLegacy,
    legacy: options.legacy,
    progress: (done) => progress('loading', done),
  });
  const loadMs = performance.now() - started;

  progress('indexing', options.stores);
  const indexStarted = performance.now();
  await restoreLoadIndexes(client, saved, (d, ms) =>
    log?.debug({ kind: d.kind, name: d.name, ms: Math.round(ms) }, 'rebuilt'),
  );
  const indexesMs = performance.now() - indexStarted;

  const finishStarted = performance.now();
  await recountAndAdvance(client);
  const finishMs = performance.now() - finishStarted;

  // inside the transaction: the statistics commit with the data, and statement_timeout is still off
  progress('analyzing', options.stores);
  const analyzeStarted = performance.now();
  await client.query(`ANALYZE ${loadedTables.join(', ')}, apps`);
  const analyzeMs = performance.now() - analyzeStarted;
  const { durationMs: storeRollupsMs } = await buildStoreRollups(client);
  const { durationMs: trendRollupsMs } = await rebuildAppTrendRollups(client);

  return {
    seed,
    mode,
    stores: options.stores,
    firstStoreId,
    lastStoreId,
    rows,
    legacySummaries: {
      target: copyLegacy ? 'postgres:legacy_store_summaries' : options.legacy!.source,
      written: legacyWritten,
    },
    rebuiltIndexes: rebuild,
    timingsMs: {
      load: Math.round(loadMs),
      indexes: Math.round(indexesMs),
      finish: Math.round(finishMs),
      analyze: analyzeMs,
      rollups: storeRollupsMs + trendRollupsMs,
    },
  };
}
