// Per-request loaders for stores and what hangs off a store. Every keyed read goes through one of
// these, so a page of N stores costs the same few statements as a page of 2.
import DataLoader from 'dataloader';
import type { StoreDailySnapshot, TrafficMonthly } from '../generated/prisma/client.ts';
import type { LegacySummary } from '../legacy/port.ts';
import { childPageLoader } from '../graphql/child-pages.ts';
import { defineLoader, type GraphqlContext } from '../graphql/context.ts';
import { queryRows } from '../platform/database/sql.ts';
import { appsByStoreId } from '../apps/app.loaders.ts';
import { APP_COLUMNS, type AppRecord } from '../apps/app.sql.ts';
import { storeColumns, type StoreRecord } from './store.sql.ts';

function byKey<K, V>(keys: readonly K[], rows: readonly V[], keyOf: (row: V) => K): (V | null)[] {
  const map = new Map(rows.map((row) => [keyOf(row), row]));
  return keys.map((key) => map.get(key) ?? null);
}

// Stores are read with raw SQL rather than Prisma: the same StoreRecord (storeColumns maps every
// column to the model's field), without the client's per-query compilation on the hot path.
const STORE_SELECT = `SELECT ${storeColumns('s')} FROM stores s`;

export const storeById = defineLoader(
  (ctx) =>
    new DataLoader<number, StoreRecord | null>(async (ids) => {
      const stores = await queryRows<StoreRecord>(ctx.services.db.read, `${STORE_SELECT} WHERE s.id = ANY($1::int[])`, [ids], 'store-by-id');
      for (const store of stores) storeByDomain(ctx).prime(store.domain, store);
      return byKey(ids, stores, (s) => s.id);
    }),
);

/** Keys are canonical domains (see normalizeDomain). */
export const storeByDomain = defineLoader(
  (ctx) =>
    new DataLoader<string, StoreRecord | null>(async (domains) => {
      const stores = await queryRows<StoreRecord>(ctx.services.db.read, `${STORE_SELECT} WHERE s.domain = ANY($1::text[])`, [domains], 'store-by-domain');
      for (const store of stores) storeById(ctx).prime(store.id, store);
      return byKey(domains, stores, (s) => s.domain);
    }),
);

/** Stores read by a list query are cached for the fields that look them up again by key. */
export function primeStores(ctx: GraphqlContext, stores: readonly StoreRecord[]): void {
  for (const store of stores) {
    storeById(ctx).prime(store.id, store);
    storeByDomain(ctx).prime(store.domain, store);
  }
}

/**
 * The legacy store's summary of each domain: one findByDomains round trip per batch. The legacy
 * store only enriches a store, so while it is unreachable stores are served without its fields
 * (and `sources` lacks its entry) instead of failing the request.
 */
export const legacySummaryByDomain = defineLoader(
  (ctx) =>
    new DataLoader<string, LegacySummary | null>(async (domains) => {
      try {
        const found = await ctx.services.legacy.findByDomains(domains);
        return domains.map((d) => found.get(d) ?? null);
      } catch (error) {
        ctx.services.logger.warn(
          { err: { message: (error as Error).message }, source: ctx.services.legacy.source },
          'legacy store unavailable: serving stores without its fields',
        );
        return domains.map(() => null);
      }
    }),
);

// Days and months travel as 'YYYY-MM-DD' text: pg would turn a DATE into local midnight.
export type TrafficRecord = Omit<TrafficMonthly, 'month'> & { month: string };
export type HistoryRecord = Omit<StoreDailySnapshot, 'day'> & { day: string };

const TRAFFIC_COLUMNS = `t.store_id AS "storeId", to_char(t.month, 'YYYY-MM-DD') AS month, t.visits, t.organic_pct AS "organicPct",
  t.paid_pct AS "paidPct", t.social_pct AS "socialPct", t.direct_pct AS "directPct",
  t.referral_pct AS "referralPct", t.source`;

/** The newest third-party traffic month of each store; null when the store has no coverage. */
export const latestTrafficByStoreId = defineLoader(
  (ctx) =>
    new DataLoader<number, TrafficRecord | null>(async (storeIds) => {
      const rows = await queryRows<TrafficRecord>(
        ctx.services.db.read,
        `SELECT DISTINCT ON (t.store_id) ${TRAFFIC_COLUMNS} FROM traffic_monthly t
         WHERE t.store_id = ANY($1::int[]) ORDER BY t.store_id, t.month DESC`,
        [storeIds],
      );
      return byKey(storeIds, rows, (r) => r.storeId);
    }),
);

/** What a store read brings along besides the row, planned from the caller's selection. */
export interface StoreCardNeeds {
  /** the app stack (the apps field, the models) */
  apps: boolean;
  /** the newest traffic month (traffic.latest, sources, the models) */
  traffic: boolean;
}

const LATEST_TRAFFIC = `(SELECT row_to_json(latest) FROM (SELECT ${TRAFFIC_COLUMNS} FROM traffic_monthly t
  WHERE t.store_id = s.id ORDER BY t.month DESC LIMIT 1) latest) AS "latestTraffic"`;
const APP_STACK = `(SELECT coalesce(json_agg(stack ORDER BY stack."installCount" DESC, stack.name), '[]'::json)
  FROM (SELECT ${APP_COLUMNS} FROM store_apps sa JOIN apps a ON a.id = sa.app_id WHERE sa.store_id = s.id) stack) AS apps`;

/**
 * A store read by domain in one prepared statement that carries exactly what the selection needs:
 * the row alone for a card, plus the newest traffic month and the app stack (which prime the
 * loaders those fields use) for a full profile. One loader per shape, so each keeps its batching.
 */
const storeCardLoaders = new Map(
  [false, true].flatMap((apps) =>
    [false, true].map((traffic) => {
      const name = `store-card${apps ? '-apps' : ''}${traffic ? '-traffic' : ''}`;
      const text = `SELECT ${[storeColumns('s'), ...(traffic ? [LATEST_TRAFFIC] : []), ...(apps ? [APP_STACK] : [])].join(',\n')}
        FROM stores s WHERE s.domain = ANY($1::text[])`;
      const loader = defineLoader(
        (ctx) =>
          new DataLoader<string, StoreRecord | null>(async (domains) => {
            const rows = await queryRows<StoreRecord & { latestTraffic?: TrafficRecord | null; apps?: AppRecord[] }>(ctx.services.db.read, text, [domains], name);
            const stores = rows.map(({ latestTraffic, apps: stack, ...store }) => {
              if (traffic) latestTrafficByStoreId(ctx).prime(store.id, latestTraffic ?? null);
              if (apps) appsByStoreId(ctx).prime(store.id, stack ?? []);
              return store;
            });
            primeStores(ctx, stores);
            return byKey(domains, stores, (s) => s.domain);
          }),
      );
      return [`${apps}/${traffic}`, loader] as const;
    }),
  ),
);

export const storeCardByDomain = (ctx: GraphqlContext, needs: StoreCardNeeds) => storeCardLoaders.get(`${needs.apps}/${needs.traffic}`)!(ctx);

/** Monthly traffic points, newest month first. */
export const trafficPage = defineLoader((ctx) =>
  childPageLoader<TrafficRecord>(ctx.services.db.read, {
    select: TRAFFIC_COLUMNS,
    from: 'traffic_monthly t',
    parentColumn: 't.store_id',
    orderBy: 't.month DESC',
  }),
);

/** Daily snapshots, newest day first. */
export const historyPage = defineLoader((ctx) =>
  childPageLoader<HistoryRecord>(ctx.services.db.read, {
    select: `h.store_id AS "storeId", to_char(h.day, 'YYYY-MM-DD') AS day, h.monthly_visits AS "monthlyVisits", h.revenue_low_usd AS "revenueLowUsd",
      h.revenue_high_usd AS "revenueHighUsd", h.service_rating AS "serviceRating", h.product_count AS "productCount"`,
    from: 'store_daily_snapshots h',
    parentColumn: 'h.store_id',
    orderBy: 'h.day DESC',
  }),
);
