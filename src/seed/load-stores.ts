// The loading loop: stores generated in chunks and streamed into COPY FROM STDIN, table by table.
// Chunk k is copied while chunk k+1 is generated; generation yields to the event loop every few
// stores so the COPY keeps streaming, and memory holds at most two chunks whatever N is.
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { LegacyStore, LegacySummary } from '../platform/legacy/port.ts';
import {
  CATALOG_COLUMNS,
  CatalogChunk,
  type CatalogTable,
  type IdCounters,
} from './catalog-tables.ts';
import { generateStore } from './generate-store.ts';
import type { SeedContext } from './seed-context.ts';

/** stores generated between two yields to the event loop */
const GENERATION_SLICE = 100;
const LEGACY_PORT_BATCH = 1_000;
const COPY_ORDER: CatalogTable[] = [
  'stores',
  'products',
  'store_apps',
  'store_app_periods',
  'store_daily_snapshots',
  'traffic_monthly',
  'change_records',
  'legacy_store_summaries',
];

export interface LoadOptions {
  chunkSize: number;
  /** COPY legacy summaries into legacy_store_summaries; otherwise hand them to `legacy` */
  copyLegacy: boolean;
  legacy?: LegacyStore;
  progress: (storesDone: number) => void;
}

export interface LoadResult {
  rows: Record<CatalogTable, number>;
  legacyWritten: number;
}

/** Generates stores firstId..lastId and COPYs them; returns the rows written per table. */
export async function loadStores(
  client: pg.PoolClient,
  ctx: SeedContext,
  ids: IdCounters,
  firstId: number,
  lastId: number,
  options: LoadOptions,
): Promise<LoadResult> {
  const rows = Object.fromEntries(COPY_ORDER.map((t) => [t, 0])) as Record<CatalogTable, number>;
  let legacyWritten = 0;
  options.progress(0);
  let copying: Promise<void> = Promise.resolve();
  for (let from = firstId; from <= lastId; from += options.chunkSize) {
    const to = Math.min(lastId, from + options.chunkSize - 1);
    const { chunk, legacyDocs } = await generateChunk(ctx, ids, from, to, options.copyLegacy);
    await copying;
    copying = (async () => {
      for (const table of COPY_ORDER) {
        const buffer = chunk.tables[table];
        if (buffer.rows === 0) continue;
        await copyInto(client, table, buffer.format, buffer.finish());
        rows[table] += buffer.rows;
      }
      if (options.copyLegacy) legacyWritten += chunk.tables.legacy_store_summaries.rows;
      else {
        for (let i = 0; i < legacyDocs.length; i += LEGACY_PORT_BATCH) {
          await options.legacy!.upsertMany(legacyDocs.slice(i, i + LEGACY_PORT_BATCH));
        }
        legacyWritten += legacyDocs.length;
      }
      options.progress(to - firstId + 1);
    })();
    // awaited before the next chunk is copied; until then a failure must not count as unhandled
    copying.catch(() => undefined);
  }
  await copying;
  return { rows, legacyWritten };
}

async function generateChunk(
  ctx: SeedContext,
  ids: IdCounters,
  from: number,
  to: number,
  copyLegacy: boolean,
): Promise<{ chunk: CatalogChunk; legacyDocs: LegacySummary[] }> {
  const chunk = new CatalogChunk(ctx, ids, copyLegacy);
  const legacyDocs: LegacySummary[] = [];
  for (let id = from; id <= to; id++) {
    const store = generateStore(ctx, id);
    chunk.add(store);
    if (!copyLegacy) legacyDocs.push(store.legacy);
    // let the COPY of the previous chunk write its next pieces
    if ((id - from) % GENERATION_SLICE === GENERATION_SLICE - 1) await new Promise(setImmediate);
  }
  return { chunk, legacyDocs };
}

async function copyInto(
  client: pg.PoolClient,
  table: CatalogTable,
  format: 'text' | 'binary',
  pieces: readonly (string | Buffer)[],
): Promise<void> {
  const stream = client.query(
    copyFrom(
      `COPY ${table} (${CATALOG_COLUMNS[table].join(', ')}) FROM STDIN WITH (FORMAT ${format})`,
    ),
  );
  await pipeline(Readable.from(pieces), stream);
}
