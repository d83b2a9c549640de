// The watch lifecycle (spec part 3, Signal): create (tracked, best-sellers auto-tracked, a first
// probe queued), list, pause and resume, swap the tracked products, delete. Each change is one
// transaction with the probe jobs it implies, so a watch and its schedule never disagree.
import type pg from 'pg';
import type { GraphqlContext } from '../graphql/context.ts';
import { guardDb, queryRows } from '../platform/database/sql.ts';
import { reasonError, badRequest, notFound } from '../platform/errors.ts';
import { normalizeDomain } from '../stores/domain.ts';
import { inTransaction } from '../platform/database/transaction.ts';
import { findWatch } from './find-watch.ts';
import {
  probeIntervalMs,
  queueProbe,
  scheduleNextProbe,
  unscheduleProbes,
} from './probes/probe-schedule.ts';
import { assertMayWrite } from './signal-owner.ts';
import { ownerAccountId } from '../access/account-owner.ts';
import { trackProducts } from './tracked-variants.ts';
import { WATCH_COLUMNS, type SignalStatus, type WatchRecord } from './watch-record.ts';

/** products tracked automatically: the store's best-sellers, best first */
export const AUTO_TRACKED_PRODUCTS = 20;
/** most products one watch tracks (PATCH products) */
export const MAX_TRACKED_PRODUCTS = 50;

export const clockOf = (ctx: GraphqlContext) => ctx.services.clock?.() ?? new Date();

async function watchById(ctx: GraphqlContext, id: number): Promise<WatchRecord> {
  const [watch] = await queryRows<WatchRecord>(
    ctx.services.db.pool,
    `SELECT ${WATCH_COLUMNS} FROM signals w JOIN stores s ON s.id = w.store_id WHERE w.id = $1`,
    [id],
  );
  if (!watch) throw notFound(`The watch ${id} is gone.`, { id });
  return watch;
}

export async function createWatch(ctx: GraphqlContext, input: string): Promise<WatchRecord> {
  assertMayWrite(ctx);
  const domain = normalizeDomain(input, 'domain');
  const owner = await ownerAccountId(ctx);
  const now = clockOf(ctx);
  const interval = probeIntervalMs(ctx.services.config.SIGNAL_PROBE_INTERVAL_MINUTES);
  const id = await guardDb(
    inTransaction(ctx.services.db.pool, async (client) => {
      const {
        rows: [store],
      } = await client.query<{ id: number }>('SELECT id FROM stores WHERE domain = $1', [domain]);
      if (!store) {
        throw notFound(
          `${domain} is not in the catalog. Queue a scrape with POST /v1/scrapes, then create the watch once it is done.`,
          {
            domain,
            scrape: 'POST /v1/scrapes',
          },
        );
      }
      const {
        rows: [created],
      } = await client.query<{ id: number }>(
        `INSERT INTO signals (account_id, store_id, status, created_at, updated_at) VALUES ($1, $2, 'tracked', $3, $3)
         ON CONFLICT (account_id, store_id) DO NOTHING RETURNING id`,
        [owner, store.id, now],
      );
      if (!created)
        throw reasonError('already_tracked', `This account already watches ${domain}.`, {
          domain,
          watch: `/v1/signals/${domain}`,
        });
      const { rows: products } = await client.query<{ handle: string; title: string }>(
        `SELECT handle, title FROM products p WHERE store_id = $1
            AND (is_best_seller OR NOT EXISTS (SELECT 1 FROM products b WHERE b.store_id = $1 AND b.is_best_seller))
          ORDER BY best_seller_rank NULLS LAST, published_at DESC NULLS LAST, id LIMIT $2`,
        [store.id, AUTO_TRACKED_PRODUCTS],
      );
      await trackProducts(client, created.id, products, now);
      await queueProbe(client, created.id, 'first', now);
      await scheduleNextProbe(client, created.id, new Date(now.getTime() + interval));
      return created.id;
    }),
  );
  return watchById(ctx, id);
}

export interface WatchChange {
  status?: SignalStatus | null;
  /** product handles: the new tracked set (every variant of each) */
  products?: readonly string[] | null;
}

export async function updateWatch(
  ctx: GraphqlContext,
  domain: string,
  change: WatchChange,
): Promise<WatchRecord> {
  const watch = await findWatch(ctx, domain, 'write');
  const now = clockOf(ctx);
  const interval = probeIntervalMs(ctx.services.config.SIGNAL_PROBE_INTERVAL_MINUTES);
  await guardDb(
    inTransaction(ctx.services.db.pool, async (client) => {
      const {
        rows: [current],
      } = await client.query<{ status: SignalStatus; last_probe_at: Date | null }>(
        'SELECT status::text AS status, last_probe_at FROM signals WHERE id = $1 FOR UPDATE',
        [watch.id],
      );
      if (!current)
        throw notFound(`No watch on ${watch.domain} for this key's account.`, { domain });
      if (change.products) await swapTrackedProducts(client, watch, change.products, now);
      if (change.status && change.status !== current.status) {
        await client.query('UPDATE signals SET status = $2::signal_status WHERE id = $1', [
          watch.id,
          change.status,
        ]);
        if (change.status === 'paused') await unscheduleProbes(client, watch.id);
        else {
          // resuming: the next probe is due one interval after the last one, or now when that has passed
          const due = current.last_probe_at
            ? current.last_probe_at.getTime() + interval
            : now.getTime();
          await scheduleNextProbe(client, watch.id, new Date(Math.max(due, now.getTime())));
        }
      }
      await client.query('UPDATE signals SET updated_at = $2 WHERE id = $1', [watch.id, now]);
    }),
  );
  return watchById(ctx, watch.id);
}

async function swapTrackedProducts(
  client: pg.PoolClient,
  watch: WatchRecord,
  handles: readonly string[],
  now: Date,
): Promise<void> {
  const wanted = [...new Set(handles.map((h) => h.trim().toLowerCase()))];
  if (wanted.length === 0 || wanted.length > MAX_TRACKED_PRODUCTS) {
    const rule = `must name 1 to ${MAX_TRACKED_PRODUCTS} product handles`;
    throw badRequest(`Invalid products: ${rule}`, { parameter: 'products', rule });
  }
  const { rows: known } = await client.query<{ handle: string; title: string }>(
    'SELECT handle, title FROM products WHERE store_id = $1 AND handle = ANY($2::text[])',
    [watch.storeId, wanted],
  );
  const missing = wanted.filter((h) => !known.some((p) => p.handle === h));
  if (missing.length > 0) {
    const rule = `unknown product handles on ${watch.domain}: ${missing.join(', ')} (see GET /v1/stores/${watch.domain}/products)`;
    throw badRequest(`Invalid products: ${rule}`, { parameter: 'products', rule });
  }
  await client.query(
    'UPDATE tracked_variants SET active = (product_handle = ANY($2::text[])) WHERE signal_id = $1',
    [watch.id, wanted],
  );
  await trackProducts(client, watch.id, known, now);
}

export async function deleteWatch(ctx: GraphqlContext, domain: string): Promise<WatchRecord> {
  const watch = await findWatch(ctx, domain, 'write');
  await guardDb(
    inTransaction(ctx.services.db.pool, async (client) => {
      // probes, tracked variants, snapshots and insights go with the watch (ON DELETE CASCADE); the catalog stays
      await client.query('DELETE FROM signals WHERE id = $1', [watch.id]);
      await unscheduleProbes(client, watch.id);
    }),
  );
  return watch;
}

/** The caller's watches, newest first. */
export async function listWatches(
  ctx: GraphqlContext,
  window: { offset: number; limit: number },
): Promise<WatchRecord[]> {
  const owner = await ownerAccountId(ctx);
  return queryRows<WatchRecord>(
    ctx.services.db.pool,
    `SELECT ${WATCH_COLUMNS} FROM signals w JOIN stores s ON s.id = w.store_id WHERE w.account_id = $1
      ORDER BY w.created_at DESC, w.id DESC LIMIT $2 OFFSET $3`,
    [owner, window.limit, window.offset],
  );
}

export async function countWatches(
  ctx: GraphqlContext,
): Promise<{ total: number; exact: boolean }> {
  const owner = await ownerAccountId(ctx);
  const [row] = await queryRows<{ n: number }>(
    ctx.services.db.pool,
    'SELECT count(*)::int AS n FROM signals WHERE account_id = $1',
    [owner],
  );
  return { total: row?.n ?? 0, exact: true };
}
