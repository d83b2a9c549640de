// Bulk loads run faster into tables without secondary indexes, primary keys of child tables and
// foreign keys: each is built once at the end (sorted, in parallel where PostgreSQL can) instead
// of row by row, and foreign keys are checked by one join instead of one trigger per row.
// The definitions are read from the catalog before dropping (pg_get_indexdef,
// pg_get_constraintdef) and replayed afterwards, so the schema ends exactly as migrated: same
// names, same columns, same options. Everything happens inside the seeding transaction: a failed
// or interrupted seed rolls the drops back too.
import type pg from 'pg';

export interface SavedDefinition {
  kind: 'foreign_key' | 'primary_key' | 'index';
  table: string;
  name: string;
  /** the statement that recreates it */
  create: string;
  /** the statement that drops it */
  drop: string;
}

/**
 * Drops the foreign keys of `tables`, the primary keys of `tables` except `keepPrimaryKeysOf`
 * (primary keys other tables reference must stay), and every index that backs no constraint.
 * Returns what it dropped, in the order to recreate it.
 */
export async function dropLoadIndexes(
  client: pg.ClientBase,
  tables: readonly string[],
  keepPrimaryKeysOf: readonly string[],
): Promise<SavedDefinition[]> {
  const { rows: constraints } = await client.query<{
    table: string;
    name: string;
    def: string;
    contype: string;
  }>(
    `SELECT c.conrelid::regclass::text AS table, quote_ident(c.conname) AS name,
            pg_get_constraintdef(c.oid) AS def, c.contype
       FROM pg_constraint c
      WHERE c.conrelid = ANY($1::regclass[])
        AND (c.contype = 'f' OR (c.contype = 'p' AND NOT c.conrelid = ANY($2::regclass[])))
      ORDER BY c.conrelid::regclass::text, c.conname`,
    [tables, keepPrimaryKeysOf],
  );
  const { rows: indexes } = await client.query<{ table: string; name: string; def: string }>(
    `SELECT i.indrelid::regclass::text AS table, i.indexrelid::regclass::text AS name,
            pg_get_indexdef(i.indexrelid) AS def
       FROM pg_index i
      WHERE i.indrelid = ANY($1::regclass[])
        AND NOT EXISTS (SELECT 1 FROM pg_constraint c
                         WHERE c.conindid = i.indexrelid AND c.contype IN ('p', 'u', 'x'))
      ORDER BY i.indrelid::regclass::text, i.indexrelid::regclass::text`,
    [tables],
  );
  const constraint = (
    kind: SavedDefinition['kind'],
    c: (typeof constraints)[number],
  ): SavedDefinition => ({
    kind,
    table: c.table,
    name: c.name,
    create: `ALTER TABLE ${c.table} ADD CONSTRAINT ${c.name} ${c.def}`,
    drop: `ALTER TABLE ${c.table} DROP CONSTRAINT ${c.name}`,
  });
  const foreignKeys = constraints
    .filter((c) => c.contype === 'f')
    .map((c) => constraint('foreign_key', c));
  const primaryKeys = constraints
    .filter((c) => c.contype === 'p')
    .map((c) => constraint('primary_key', c));
  const plainIndexes = indexes.map(
    (i): SavedDefinition => ({
      kind: 'index',
      table: i.table,
      name: i.name,
      // a partitioned table's index reads "ON ONLY <table>" (the parent alone, as pg_dump builds it
      // before its partitions'); recreated here it must span the partitions again
      create: i.def.replace(' ON ONLY ', ' ON '),
      drop: `DROP INDEX ${i.name}`,
    }),
  );
  // foreign keys first (they may lean on the keys), then indexes, then primary keys
  for (const d of [...foreignKeys, ...plainIndexes, ...primaryKeys]) await client.query(d.drop);
  return [...primaryKeys, ...plainIndexes, ...foreignKeys];
}

/** Recreates what dropLoadIndexes dropped, keys and indexes before the foreign keys that check them. */
export async function restoreLoadIndexes(
  client: pg.ClientBase,
  saved: readonly SavedDefinition[],
  onEach?: (definition: SavedDefinition, ms: number) => void,
): Promise<void> {
  for (const d of saved) {
    const started = performance.now();
    await client.query(d.create);
    onEach?.(d, performance.now() - started);
  }
}
