// Stores that moved to a new host (store_moves): the store keeps its id, history, watches and apps
// under its new domain, and each of its old domains leads to it. GET /v1/stores/{old} answers the
// store under its new domain (its `domain` says where it is now).
import type { Queryable } from '../platform/jobs/job-queue.ts';

/** The domain a store that once answered at `oldDomain` has now, if it moved. */
export async function movedDomain(db: Queryable, oldDomain: string): Promise<string | null> {
  const {
    rows: [row],
  } = await db.query<{ domain: string }>(
    'SELECT s.domain FROM store_moves m JOIN stores s ON s.id = m.store_id WHERE m.old_domain = $1',
    [oldDomain],
  );
  return row?.domain ?? null;
}

/** The domain each of `oldDomains` leads to now, for those that belong to a store that moved. */
export async function movedDomains(
  db: Queryable,
  oldDomains: readonly string[],
): Promise<Map<string, string>> {
  const { rows } = await db.query<{ oldDomain: string; domain: string }>(
    'SELECT m.old_domain AS "oldDomain", s.domain FROM store_moves m JOIN stores s ON s.id = m.store_id WHERE m.old_domain = ANY($1::text[])',
    [oldDomains],
  );
  return new Map(rows.map((row) => [row.oldDomain, row.domain]));
}

/**
 * Renames store `storeId` from `from` to `to` and keeps every old name leading to it, with a change
 * record saying it moved (entity store, change type domain_changed). In the caller's transaction.
 */
export async function recordMove(
  db: Queryable,
  move: { storeId: number; from: string; to: string; now: Date },
): Promise<void> {
  const { storeId, from, to, now } = move;
  await db.query('DELETE FROM store_moves WHERE old_domain = $1', [to]);
  await db.query(
    `INSERT INTO store_moves (old_domain, store_id, new_domain, moved_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (old_domain) DO UPDATE SET store_id = excluded.store_id, new_domain = excluded.new_domain, moved_at = excluded.moved_at`,
    [from, storeId, to, now],
  );
  await db.query('UPDATE store_moves SET new_domain = $2 WHERE store_id = $1', [storeId, to]);
  await db.query('UPDATE stores SET domain = $2, updated_at = $3 WHERE id = $1', [
    storeId,
    to,
    now,
  ]);
  await db.query(
    `INSERT INTO change_records (store_id, entity, change_type, subject, summary, old_value, new_value, change_pct, detected_at)
     VALUES ($1, 'store', 'domain_changed', NULL, $2, $3, $4, NULL, $5)`,
    [storeId, `Moved from ${from} to ${to}`, from, to, now],
  );
}
