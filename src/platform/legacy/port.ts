// The legacy store: rich store summaries (screenshots, socials, emails, legacy ids).
// One port, two adapters: MongoDB (collection store_summaries) when MONGODB_URL is set, otherwise
// a JSONB table of the structured PostgreSQL (legacy_store_summaries). Callers never choose.

export interface LegacySocials {
  instagram?: string | null;
  facebook?: string | null;
  tiktok?: string | null;
  twitter?: string | null;
  youtube?: string | null;
  pinterest?: string | null;
}

/** One store summary, exactly as both adapters store and return it. */
export interface LegacySummary {
  domain: string;
  /** the legacy store-database id (24 hex characters) */
  legacyId: string;
  title?: string | null;
  description?: string | null;
  screenshotUrl?: string | null;
  socials: LegacySocials;
  emails: string[];
  phones?: string[];
  /** when the legacy crawler last saw the store, ISO 8601 */
  lastCrawledAt?: string | null;
}

export interface LegacyHealth {
  ok: boolean;
  /** e.g. "mongo" or "postgres-jsonb" */
  backend: string;
  latencyMs?: number;
  error?: string;
}

export interface LegacyStore {
  /** the `<backend>:<table_or_collection>` name this adapter contributes to `sources` */
  readonly source: string;
  /**
   * Set when the summaries live in a table of the structured store's own database (the JSONB
   * adapter): its name, a table keyed by `domain` with the summary in `doc`, so a store read can join
   * it in the same statement instead of a round trip of its own. Absent for a separate backend (MongoDB).
   */
  readonly colocatedTable?: string;
  /** Summaries for many domains in one round trip; missing domains are absent from the map. */
  findByDomains(domains: readonly string[]): Promise<Map<string, LegacySummary>>;
  /** Summaries for many legacy ids in one round trip, keyed by legacy id. */
  findByLegacyIds(ids: readonly string[]): Promise<Map<string, LegacySummary>>;
  /** Insert or replace the summary of summary.domain. */
  upsert(summary: LegacySummary): Promise<void>;
  /** Many at once (seeding, scrapes of many stores). */
  upsertMany(summaries: readonly LegacySummary[]): Promise<void>;
  /**
   * The summary of a store that moved, re-keyed from its old domain to its new one with its legacy
   * id (a summary already at the new domain is replaced); nothing when the old domain has none.
   */
  moveDomain(from: string, to: string): Promise<void>;
  health(): Promise<LegacyHealth>;
  close(): Promise<void>;
}
