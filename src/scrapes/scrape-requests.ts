// Scrape requests as the API takes them (POST /v1/scrapes, /v1/scrapes/bulk, Mutation.requestScrape
// and requestScrapesBulk) and shows them (GET /v1/scrapes/{id}, Query.scrapeRequest, recentScrapes).
// A request is written together with its job in one transaction, under a per-domain lock, so the
// catalog check and the forced re-scrape cooldown hold under concurrent requests.
import { ApiError, badRequest, notFound } from '../platform/errors.ts';
import { enqueueJob } from '../platform/jobs/job-queue.ts';
import type { Services } from '../platform/services.ts';
import { parseDomain } from '../stores/domain.ts';
import { publishScrape } from './scrape-events.ts';
import {
  FORCE_COOLDOWN_MS,
  isVisible,
  selectScrapes,
  toScrapeRecord,
  SCRAPE_COLUMNS,
  type ScrapeRecord,
} from './scrape-record.ts';
import { SCRAPE_MAX_ATTEMPTS, SCRAPE_TASK } from './scrape-task.ts';
import { inTransaction } from '../platform/database/transaction.ts';

export const BULK_MAX_URLS = 10;
export const RECENT_SCRAPES_MAX = 100;

export interface ScrapeOrder {
  /** canonical domain */
  domain: string;
  /** the name the caller gave (the domain or its www. form): the storefront is read there first */
  host?: string;
  force: boolean;
  callbackUrl?: string | null;
  accountId?: number | null;
}

export type ScrapeOrderResult =
  | { outcome: 'queued'; domain: string; scrape: ScrapeRecord }
  | { outcome: 'already_exists'; domain: string };

/** States of a request whose job has not ended: a second order for the domain joins it. */
const OPEN_STATES = ['queued', 'validating', 'scraping'];

export const clockOf = (services: Services) => services.clock?.() ?? new Date();

export async function orderScrape(
  services: Services,
  order: ScrapeOrder,
): Promise<ScrapeOrderResult> {
  const now = clockOf(services);
  let created = false;
  const result = await inTransaction(
    services.db.pool,
    async (client): Promise<ScrapeOrderResult> => {
      await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [
        `scrape-request:${order.domain}`,
      ]);
      const {
        rows: [store],
      } = await client.query<{ id: number }>('SELECT id FROM stores WHERE domain = $1', [
        order.domain,
      ]);
      if (store && !order.force) return { outcome: 'already_exists', domain: order.domain };
      if (!order.force) {
        // the same caller asking again while its scrape of the domain is under way gets that request, not a
        // second job (another account's request stays invisible to this caller, so it gets its own)
        const {
          rows: [open],
        } = await client.query(
          `SELECT ${SCRAPE_COLUMNS} FROM scrape_requests
          WHERE domain = $1 AND account_id IS NOT DISTINCT FROM $2 AND status::text = ANY($3) ORDER BY created_at DESC LIMIT 1`,
          [order.domain, order.accountId ?? null, OPEN_STATES],
        );
        if (open) return { outcome: 'queued', domain: order.domain, scrape: toScrapeRecord(open) };
      }
      if (order.force) {
        const {
          rows: [last],
        } = await client.query<{ created_at: Date }>(
          'SELECT created_at FROM scrape_requests WHERE domain = $1 ORDER BY created_at DESC LIMIT 1',
          [order.domain],
        );
        const wait = last ? last.created_at.getTime() + FORCE_COOLDOWN_MS - now.getTime() : 0;
        if (wait > 0) {
          const retryAfter = Math.ceil(wait / 1000);
          throw new ApiError(
            'rate_limited',
            `${order.domain} was scraped or requested less than ${FORCE_COOLDOWN_MS / 60_000} minutes ago; a forced re-scrape may follow in ${retryAfter} s.`,
            { domain: order.domain, cooldownSeconds: FORCE_COOLDOWN_MS / 1000, retryAfter },
            retryAfter,
          );
        }
      }
      const {
        rows: [row],
      } = await client.query(
        `INSERT INTO scrape_requests (id, domain, store_id, force, callback_url, account_id, created_at, updated_at)
       VALUES (gen_random_uuid(), $1, $2, $3, $4, $5, $6, $6) RETURNING ${SCRAPE_COLUMNS}`,
        [
          order.domain,
          store?.id ?? null,
          order.force,
          order.callbackUrl ?? null,
          order.accountId ?? null,
          now,
        ],
      );
      const scrape = toScrapeRecord(row);
      await enqueueJob(
        client,
        SCRAPE_TASK,
        order.host ? { requestId: scrape.id, host: order.host } : { requestId: scrape.id },
        { jobKey: `scrape:${scrape.id}`, maxAttempts: SCRAPE_MAX_ATTEMPTS },
      );
      created = true;
      return { outcome: 'queued', domain: order.domain, scrape };
    },
  );
  if (created && result.outcome === 'queued')
    await publishScrape(services.pubsub, services.logger, result.scrape);
  return result;
}

export type BulkItem =
  | ({ url: string } & ScrapeOrderResult)
  | { url: string; outcome: 'duplicate'; domain: string }
  | {
      url: string;
      outcome: 'rejected';
      domain: string | null;
      error: { code: string; message: string };
    };

/** Each URL as its own request (in order); one URL's refusal never stops the others. */
export async function orderScrapes(
  services: Services,
  urls: readonly string[],
  options: Omit<ScrapeOrder, 'domain'>,
): Promise<BulkItem[]> {
  if (urls.length === 0 || urls.length > BULK_MAX_URLS) {
    const rule = `must hold 1 to ${BULK_MAX_URLS} URLs`;
    throw badRequest(`Invalid urls: ${rule}`, { parameter: 'urls', rule });
  }
  const seen = new Set<string>();
  const items: BulkItem[] = [];
  for (const url of urls) {
    const parsed = parseDomain(url);
    if (!parsed.ok) {
      items.push({
        url,
        outcome: 'rejected',
        domain: null,
        error: { code: 'bad_request', message: `Invalid URL: ${parsed.rule}` },
      });
      continue;
    }
    if (seen.has(parsed.domain)) {
      items.push({ url, outcome: 'duplicate', domain: parsed.domain });
      continue;
    }
    seen.add(parsed.domain);
    try {
      items.push({
        url,
        ...(await orderScrape(services, { ...options, domain: parsed.domain, host: parsed.host })),
      });
    } catch (error) {
      if (!(error instanceof ApiError) || error.code === 'internal') throw error;
      items.push({
        url,
        outcome: 'rejected',
        domain: parsed.domain,
        error: { code: error.code, message: error.message },
      });
    }
  }
  return items;
}

/**
 * The request `id` if `accountId` owns it (null: open-dev requests, seen by open-dev callers only).
 * Another account's request is not_found, the same answer as an id that never existed.
 */
export async function findScrape(
  services: Services,
  id: string,
  accountId: number | null,
): Promise<ScrapeRecord> {
  const missing = () =>
    notFound(`No scrape request ${id}: it never existed, or ended more than 15 minutes ago.`, {
      id,
    });
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) throw missing();
  const [record] = await selectScrapes(
    services.db.pool,
    'id = $1 AND account_id IS NOT DISTINCT FROM $2',
    [id, accountId],
  );
  if (!record || !isVisible(record, clockOf(services))) throw missing();
  return record;
}

/** The newest requests still within their lifetime, newest first. */
/** The caller's account's newest requests still within their lifetime (open-dev: open-dev requests only). */
export async function recentScrapes(
  services: Services,
  limit: number,
  accountId: number | null,
): Promise<ScrapeRecord[]> {
  return selectScrapes(
    services.db.pool,
    '(expires_at IS NULL OR expires_at > $1) AND account_id IS NOT DISTINCT FROM $3 ORDER BY created_at DESC LIMIT $2',
    [clockOf(services), Math.min(Math.max(limit, 1), RECENT_SCRAPES_MAX), accountId],
  );
}
