// A scrape request as callers see it (GET /v1/scrapes/{id}, the GraphQL type, status events and
// webhook bodies), read from scrape_requests. Times are ISO 8601 strings so the record is the same
// object before and after a pub/sub JSON round trip.
import type { Queryable } from '../platform/jobs/job-queue.ts';
import { STOREFRONT_FAILURE_KINDS } from '../storefront/storefront-failure.ts';

export const SCRAPE_STATUSES = ['queued', 'validating', 'scraping', 'done', 'failed'] as const;
export type ScrapeStatus = (typeof SCRAPE_STATUSES)[number];
export const ACTIVE_STATUSES: readonly ScrapeStatus[] = ['queued', 'validating', 'scraping'];
export const isFinished = (status: ScrapeStatus) => status === 'done' || status === 'failed';

/** Why a request failed: what went wrong reading the storefront, or internal (a fault of ours, or a job that could not run). */
export const SCRAPE_FAILURE_CODES = [...STOREFRONT_FAILURE_KINDS, 'internal'] as const;
export type ScrapeFailureCode = (typeof SCRAPE_FAILURE_CODES)[number];

/** the status record lives this long after the request ends (spec part 3) */
export const STATUS_TTL_MS = 15 * 60_000;
/** a forced re-scrape of the same store waits this long after the previous request (spec part 3) */
export const FORCE_COOLDOWN_MS = 5 * 60_000;

export interface ScrapeRecord {
  id: string;
  domain: string;
  status: ScrapeStatus;
  force: boolean;
  callbackUrl: string | null;
  failureReason: string | null;
  /** set with failureReason when the request failed */
  failureCode: ScrapeFailureCode | null;
  createdAt: string;
  updatedAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  expiresAt: string | null;
  /** the account that made the request (null: open-dev mode); scopes who may see it, never shown */
  accountId: number | null;
}

export const SCRAPE_COLUMNS =
  'id::text, domain, status::text, force, callback_url, failure_reason, failure_code, created_at, updated_at, started_at, finished_at, expires_at, account_id';

interface ScrapeRow {
  id: string;
  domain: string;
  status: ScrapeStatus;
  force: boolean;
  callback_url: string | null;
  failure_reason: string | null;
  failure_code: ScrapeFailureCode | null;
  created_at: Date;
  updated_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
  expires_at: Date | null;
  account_id: number | null;
}

const iso = (date: Date | null) => (date ? date.toISOString() : null);

export function toScrapeRecord(row: ScrapeRow): ScrapeRecord {
  return {
    id: row.id,
    domain: row.domain,
    status: row.status,
    force: row.force,
    callbackUrl: row.callback_url,
    failureReason: row.failure_reason,
    failureCode: row.failure_code,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    startedAt: iso(row.started_at),
    finishedAt: iso(row.finished_at),
    expiresAt: iso(row.expires_at),
    accountId: row.account_id,
  };
}

export async function selectScrapes(
  db: Queryable,
  whereSql: string,
  params: unknown[],
): Promise<ScrapeRecord[]> {
  const { rows } = await db.query<ScrapeRow>(
    `SELECT ${SCRAPE_COLUMNS} FROM scrape_requests WHERE ${whereSql}`,
    params,
  );
  return rows.map(toScrapeRecord);
}

/** Whether the record may still be shown at `now` (15 minutes after its end, then never again). */
/** Whether a caller of this account (null: open-dev) may see the record: only its own account's requests. */
export const isOwnedBy = (record: ScrapeRecord, accountId: number | null) =>
  record.accountId === accountId;

export const isVisible = (record: ScrapeRecord, now: Date) =>
  record.expiresAt === null || new Date(record.expiresAt) > now;
