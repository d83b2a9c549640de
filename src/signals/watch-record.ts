// A watch (the contract's "Signal"): one account following one store. Read by every Signals route;
// the row shape the watch queries return and the GraphQL Signal type resolves from.
export const SIGNAL_STATUSES = ['tracked', 'paused'] as const;
export type SignalStatus = (typeof SIGNAL_STATUSES)[number];

export interface WatchRecord {
  id: number;
  accountId: number;
  storeId: number;
  /** the store's canonical domain */
  domain: string;
  /** the store's id in the legacy store database, also accepted as the watch's {id} */
  legacyId: string | null;
  status: SignalStatus;
  createdAt: Date;
  updatedAt: Date;
  lastProbeAt: Date | null;
  nextProbeAt: Date | null;
}

/** The columns of a WatchRecord, for `SELECT ${WATCH_COLUMNS} FROM signals w JOIN stores s ON s.id = w.store_id`. */
export const WATCH_COLUMNS = `w.id, w.account_id AS "accountId", w.store_id AS "storeId", s.domain, s.legacy_id AS "legacyId",
  w.status::text AS status, w.created_at AS "createdAt", w.updated_at AS "updatedAt",
  w.last_probe_at AS "lastProbeAt", w.next_probe_at AS "nextProbeAt"`;
