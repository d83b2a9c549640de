// A probe of a watch as callers see it (GET /v1/signals/{domain}/probe): one reading of the tracked
// variants' stock and prices from the storefront. queued -> running -> done or failed.
import type { Queryable } from '../../platform/database/sql.ts';
import { queryRows } from '../../platform/database/sql.ts';

export const PROBE_STATUSES = ['queued', 'running', 'done', 'failed'] as const;
export type ProbeStatus = (typeof PROBE_STATUSES)[number];
/** first: queued with the watch; scheduled: every SIGNAL_PROBE_INTERVAL_MINUTES; manual: POST /probe */
export const PROBE_KINDS = ['first', 'scheduled', 'manual'] as const;
export type ProbeKind = (typeof PROBE_KINDS)[number];

/** a manual probe may follow the watch's previous manual probe after this long (spec part 3) */
export const MANUAL_PROBE_COOLDOWN_MS = 5 * 60_000;

export interface ProbeRecord {
  id: number;
  signalId: number;
  kind: ProbeKind;
  status: ProbeStatus;
  error: string | null;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
  /** snapshots this probe wrote (one per tracked variant read) */
  snapshots: number;
}

// A probe's snapshots are written in the transaction that ends it, dated its finished_at (probe-task.ts):
// counted through the watch's variants at that instant, one index probe per variant in the one month
// partition of that instant (inventory_snapshots has no index on probe_id, and is read while callers poll).
const PROBE_COLUMNS = `p.id, p.signal_id AS "signalId", p.kind, p.status::text AS status, p.error,
  p.created_at AS "createdAt", p.started_at AS "startedAt", p.finished_at AS "finishedAt",
  (SELECT count(*)::int FROM tracked_variants v JOIN inventory_snapshots s ON s.tracked_variant_id = v.id
    WHERE v.signal_id = p.signal_id AND s.taken_at = p.finished_at AND s.probe_id = p.id) AS snapshots`;

/** The newest inventory probe: ads probes (src/signals/ads) share the table for their cooldown but are not inventory progress. */
export async function latestProbe(db: Queryable, signalId: number): Promise<ProbeRecord | null> {
  const [probe] = await queryRows<ProbeRecord>(
    db,
    `SELECT ${PROBE_COLUMNS} FROM signal_probes p WHERE p.signal_id = $1 AND p.kind <> 'ads' ORDER BY p.created_at DESC, p.id DESC LIMIT 1`,
    [signalId],
  );
  return probe ?? null;
}

export async function probeById(db: Queryable, id: number): Promise<ProbeRecord | null> {
  const [probe] = await queryRows<ProbeRecord>(
    db,
    `SELECT ${PROBE_COLUMNS} FROM signal_probes p WHERE p.id = $1`,
    [id],
  );
  return probe ?? null;
}

/** Inventory probes by id (node lookups), in the order asked; null for a missing one. */
export async function probesByIds(
  db: Queryable,
  ids: readonly number[],
): Promise<Array<ProbeRecord | null>> {
  const rows = await queryRows<ProbeRecord>(
    db,
    `SELECT ${PROBE_COLUMNS} FROM signal_probes p WHERE p.id = ANY($1::int[]) AND p.kind <> 'ads'`,
    [ids.filter((id) => Number.isSafeInteger(id))],
  );
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.map((id) => byId.get(id) ?? null);
}
