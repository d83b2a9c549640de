// The probe job: reads every tracked product's variants from the storefront (storefront/product-js.ts),
// then the storefront observer observes the store (its apps, products and change records, written
// as any observation is), then one transaction resolves newly tracked products into their variants,
// writes one inventory snapshot per variant read, the insights of this reading and the probe's end
// state (done). Done comes last, so a client that polls until done then reads the change records
// sees what the probe found. A storefront whose variants cannot be read fails the probe with its
// reason and writes nothing else; any other error is ours and the job is retried (its last attempt
// fails the probe). The observer's failure is logged and never fails the probe.
import type { JobHelpers } from 'graphile-worker';
import type pg from 'pg';
import { z } from 'zod';
import type { Logger } from '../../platform/logger.ts';
import { ensureMonthPartitions } from '../../platform/database/month-partitions.ts';
import { inTransaction } from '../../platform/database/transaction.ts';
import {
  salesSpike,
  SPIKE_TRAILING_DAYS,
  variantInsights,
  type NewInsight,
  type PreviousSnapshot,
} from '../insights/insight-rules.ts';
import { insertInsights } from '../insights/insight-store.ts';
import { dailySales } from '../sales/daily-sales.ts';
import { utcDay } from '../sales/sales-estimate.ts';
import { watchCurrency } from '../sales/watch-sales.ts';
import { isPending } from '../tracked-variants.ts';
import { WATCH_COLUMNS, type WatchRecord } from '../watch-record.ts';
import { readProductVariants, type VariantReading } from '../../storefront/product-js.ts';
import type { StorefrontClient } from '../../storefront/storefront-client.ts';
import { StorefrontFailure } from '../../storefront/storefront-failure.ts';

const Payload = z.object({ probeId: z.number().int().positive() });

export interface ProbeTaskDeps {
  pool: pg.Pool;
  storefronts: StorefrontClient;
  clock: () => Date;
  logger: Logger;
  /** observes the watched store with each probe, before the probe is done (src/signals/watched-changes) */
  observe: (watch: WatchRecord) => Promise<{ appChanges: number; productChanges: number }>;
}

export function probeTask(deps: ProbeTaskDeps) {
  const fail = (probeId: number, reason: string) =>
    deps.pool.query(
      `UPDATE signal_probes SET status = 'failed', error = $2, finished_at = $3 WHERE id = $1 AND status IN ('queued', 'running')`,
      [probeId, reason, deps.clock()],
    );

  return async (payload: unknown, helpers: JobHelpers): Promise<void> => {
    const { probeId } = Payload.parse(payload);
    const log = deps.logger.child({ probeId, attempt: helpers.job.attempts });
    const {
      rows: [started],
    } = await deps.pool.query<{ signal_id: number }>(
      `UPDATE signal_probes SET status = 'running', started_at = coalesce(started_at, $2)
        WHERE id = $1 AND status IN ('queued', 'running') RETURNING signal_id`,
      [probeId, deps.clock()],
    );
    if (!started) return; // ended already, or its watch was deleted
    const {
      rows: [watch],
    } = await deps.pool.query<WatchRecord>(
      `SELECT ${WATCH_COLUMNS} FROM signals w JOIN stores s ON s.id = w.store_id WHERE w.id = $1`,
      [started.signal_id],
    );
    if (!watch) return;
    try {
      const { rows: products } = await deps.pool.query<{ handle: string }>(
        'SELECT DISTINCT product_handle AS handle FROM tracked_variants WHERE signal_id = $1 AND active ORDER BY 1',
        [watch.id],
      );
      const readings = new Map<string, VariantReading[] | null>();
      for (const { handle } of products)
        readings.set(handle, await readProductVariants(deps.storefronts, watch.domain, handle));
      await observeWithProbe(deps, log, watch);
      const now = deps.clock();
      // the snapshots and insights are dated now: their month partitions must exist (a month the upkeep has not made yet)
      await ensureMonthPartitions(deps.pool, now);
      const written = await inTransaction(deps.pool, (client) =>
        writeProbe(client, watch, probeId, readings, now),
      );
      if (written === null) return;
      log.info({ domain: watch.domain, snapshots: written }, 'signal probe done');
    } catch (error) {
      if (error instanceof StorefrontFailure) {
        log.info({ reason: error.message }, 'signal probe failed');
        await fail(probeId, error.message);
        return;
      }
      if (helpers.job.attempts >= helpers.job.max_attempts) {
        log.error({ err: error }, 'signal probe failed on its last attempt');
        await fail(
          probeId,
          `internal error after ${helpers.job.attempts} attempts; the next probe tries again`,
        );
        return;
      }
      throw error;
    }
  };
}

/** The observation of the probed store; its failure is logged and never fails the probe. */
async function observeWithProbe(
  deps: ProbeTaskDeps,
  log: Logger,
  watch: WatchRecord,
): Promise<void> {
  try {
    const changes = await deps.observe(watch);
    log.info({ domain: watch.domain, ...changes }, 'storefront observed with the probe');
  } catch (error) {
    log.warn(
      { err: error, domain: watch.domain },
      'storefront observation with the probe failed; the probe stands',
    );
  }
}

/** The probe's one transaction; returns the snapshots written, or null when the probe or its watch ended meanwhile. */
async function writeProbe(
  client: pg.PoolClient,
  watch: WatchRecord,
  probeId: number,
  readings: ReadonlyMap<string, VariantReading[] | null>,
  now: Date,
): Promise<number | null> {
  const {
    rows: [locked],
  } = await client.query('SELECT id FROM signals WHERE id = $1 FOR UPDATE', [watch.id]);
  const {
    rows: [probe],
  } = await client.query<{ status: string }>(
    'SELECT status::text AS status FROM signal_probes WHERE id = $1 FOR UPDATE',
    [probeId],
  );
  if (!locked || probe?.status !== 'running') return null;

  // every variant of a tracked product is tracked: pending rows become the product's real variants
  const seen = [...readings].flatMap(([handle, variants]) =>
    (variants ?? []).map((v) => ({ handle, ...v })),
  );
  await client.query(
    `DELETE FROM tracked_variants WHERE signal_id = $1 AND variant_id LIKE 'pending:%' AND product_handle = ANY($2::text[])`,
    [watch.id, [...readings].filter(([, variants]) => variants !== null).map(([handle]) => handle)],
  );
  const { rows: tracked } = await client.query<{ id: number; variantId: string }>(
    `INSERT INTO tracked_variants (signal_id, product_handle, variant_id, sku, title, active, created_at)
     SELECT $1, v.handle, v."variantId", v.sku, v.title, true, $3 FROM jsonb_to_recordset($2::jsonb) AS v(handle text, "variantId" text, sku text, title text)
     ON CONFLICT (signal_id, variant_id) DO UPDATE SET sku = excluded.sku, title = excluded.title, product_handle = excluded.product_handle, active = true
     RETURNING id, variant_id AS "variantId"`,
    [watch.id, JSON.stringify(seen), now],
  );
  const idOf = new Map(
    tracked.filter((t) => !isPending(t.variantId)).map((t) => [t.variantId, t.id]),
  );
  // each variant's newest snapshot: a newest-first scan of its month partitions that stops at the first row
  const { rows: previousRows } = await client.query<{
    id: number;
    price: string;
    stock: number | null;
    takenAt: Date;
  }>(
    `SELECT v.id, l.price::text AS price, l.stock, l.taken_at AS "takenAt"
       FROM unnest($1::int[]) AS v(id)
       CROSS JOIN LATERAL (SELECT price, stock, taken_at FROM inventory_snapshots
                            WHERE tracked_variant_id = v.id ORDER BY taken_at DESC, id DESC LIMIT 1) l`,
    [[...idOf.values()]],
  );
  const previous = new Map<number, PreviousSnapshot>(
    previousRows.map((r) => [r.id, { price: Number(r.price), stock: r.stock, takenAt: r.takenAt }]),
  );

  await client.query(
    `INSERT INTO inventory_snapshots (tracked_variant_id, probe_id, taken_at, stock, price, available)
     SELECT s.id, $1, $2, s.stock, s.price, s.available FROM jsonb_to_recordset($3::jsonb) AS s(id int, stock int, price numeric, available boolean)`,
    [
      probeId,
      now,
      JSON.stringify(
        seen.map((v) => ({
          id: idOf.get(v.variantId),
          stock: v.stock,
          price: v.price,
          available: v.available,
        })),
      ),
    ],
  );
  const cards: NewInsight[] = seen.flatMap((v) =>
    variantInsights(
      watch.domain,
      { productHandle: v.handle, ...v },
      previous.get(idOf.get(v.variantId)!),
    ),
  );
  const spike = await salesSpikeOf(client, watch, now);
  if (spike) cards.push(spike);
  await insertInsights(client, watch, cards, now);

  await client.query(
    `UPDATE signal_probes SET status = 'done', error = NULL, finished_at = $2 WHERE id = $1`,
    [probeId, now],
  );
  await client.query('UPDATE signals SET last_probe_at = $2 WHERE id = $1', [watch.id, now]);
  return seen.length;
}

/** The sales_spike card of the probe's day, unless the watch already has one for that day. */
async function salesSpikeOf(
  client: pg.PoolClient,
  watch: WatchRecord,
  now: Date,
): Promise<NewInsight | null> {
  const day = utcDay(now);
  const from = new Date(Date.parse(`${day}T00:00:00Z`) - SPIKE_TRAILING_DAYS * 86_400_000);
  const spike = salesSpike(
    watch.domain,
    await dailySales(client, watch.id, from),
    day,
    await watchCurrency(client, watch.id),
  );
  if (!spike) return null;
  // a day's card is written on that day (created_at = the probe's time): only that day's month is read
  const {
    rows: [already],
  } = await client.query(
    `SELECT 1 FROM insights WHERE signal_id = $1 AND kind = 'sales_spike' AND data->>'day' = $2
        AND created_at >= $2::date::timestamp AT TIME ZONE 'UTC' AND created_at < ($2::date + 1)::timestamp AT TIME ZONE 'UTC'`,
    [watch.id, day],
  );
  return already ? null : spike;
}
