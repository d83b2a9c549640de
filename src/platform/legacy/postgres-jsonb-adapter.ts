// The legacy store inside the structured PostgreSQL (the embedded default, no MONGODB_URL).
// Table legacy_store_summaries (see the init migration): domain (primary key), legacy_id (unique),
// doc jsonb = the canonical summary (summary.ts), updated_at. The key columns repeat what doc holds
// so both lookups use a btree index; doc is the document Mongo would hold in store_summaries.
import type pg from 'pg';
import { keyedRead, queryByKeys } from '../database/sql.ts';
import type { LegacyHealth, LegacyStore, LegacySummary } from './port.ts';
import { canonicalBatch, canonicalFromDocument, distinctKeys, elapsedMs } from './summary.ts';

const TABLE = 'legacy_store_summaries';

/** Anything that runs a query: a pg Pool normally; tests hand in a wrapped one to count statements. */
export type Queryable = Pick<pg.Pool, 'query'>;

const SUMMARIES_BY = {
  domain: keyedRead(
    'domain',
    'text',
    (keys) => `SELECT domain AS key, doc FROM ${TABLE} WHERE ${keys}`,
  ),
  legacy_id: keyedRead(
    'legacy_id',
    'text',
    (keys) => `SELECT legacy_id AS key, doc FROM ${TABLE} WHERE ${keys}`,
  ),
};

export function createPostgresLegacyStore({ pool }: { pool: Queryable }): LegacyStore {
  async function findBy(column: 'domain' | 'legacy_id', keys: readonly string[]) {
    const found = new Map<string, LegacySummary>();
    if (keys.length === 0) return found;
    // a named statement: each connection parses and plans it once
    const rows = await queryByKeys<{ key: string; doc: Record<string, unknown> }>(
      pool,
      SUMMARIES_BY[column],
      distinctKeys(keys),
      `legacy-summaries-by-${column}`,
    );
    for (const row of rows) found.set(row.key, canonicalFromDocument(row.doc));
    return found;
  }

  async function upsertMany(summaries: readonly LegacySummary[]): Promise<void> {
    const docs = canonicalBatch(summaries);
    if (docs.length === 0) return;
    // One statement for the whole batch: the documents travel as one JSON array parameter.
    await pool.query(
      `INSERT INTO ${TABLE} (domain, legacy_id, doc, updated_at)
       SELECT d->>'domain', d->>'legacyId', d, now() FROM jsonb_array_elements($1::jsonb) AS d
       ON CONFLICT (domain) DO UPDATE
         SET legacy_id = excluded.legacy_id, doc = excluded.doc, updated_at = excluded.updated_at`,
      [JSON.stringify(docs)],
    );
  }

  async function moveDomain(from: string, to: string): Promise<void> {
    // two statements, not one: a data-modifying WITH runs beside its UPDATE in no set order
    await pool.query(
      `DELETE FROM ${TABLE} WHERE domain = $2 AND EXISTS (SELECT 1 FROM ${TABLE} WHERE domain = $1)`,
      [from, to],
    );
    await pool.query(
      `UPDATE ${TABLE} SET domain = $2, doc = jsonb_set(doc, '{domain}', to_jsonb($2::text)), updated_at = now()
        WHERE domain = $1`,
      [from, to],
    );
  }

  return {
    source: `postgres:${TABLE}`,
    colocatedTable: TABLE,
    findByDomains: (domains) => findBy('domain', domains),
    findByLegacyIds: (ids) => findBy('legacy_id', ids),
    upsert: (summary) => upsertMany([summary]),
    upsertMany,
    moveDomain,
    async health(): Promise<LegacyHealth> {
      const started = performance.now();
      try {
        await pool.query('SELECT 1');
        return { ok: true, backend: 'postgres-jsonb', latencyMs: elapsedMs(started) };
      } catch (error) {
        return { ok: false, backend: 'postgres-jsonb', error: (error as Error).message };
      }
    },
    // The pool belongs to the caller (it also serves the structured store), so closing the legacy
    // store releases nothing of its own.
    async close() {},
  };
}
