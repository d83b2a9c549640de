// Per-request loaders for stores and what hangs off a store. Every keyed read goes through one of
// these, so a page of N stores costs the same few statements as a page of 2. Their SQL is in
// store.sql.ts.
import DataLoader from 'dataloader';
import type { LegacySummary } from '../platform/legacy/port.ts';
import { canonicalFromDocument } from '../platform/legacy/summary.ts';
import { childPageLoader } from '../graphql/child-pages.ts';
import { defineLoader, type GraphqlContext } from '../graphql/context.ts';
import type { SelectionAt } from '../graphql/selection.ts';
import { queryByKeys } from '../platform/database/sql.ts';
import { appsByStoreId } from '../apps/app.loaders.ts';
import {
  addStoreReadColumn,
  CARD_FIELDS,
  extensionAlias,
  extensionsOf,
  HISTORY_COLUMNS,
  KEY_ONLY_FIELDS,
  LATEST_TRAFFIC_BY_STORE,
  storeColumns,
  STORES_BY_ID,
  storesByDomainSql,
  TRAFFIC_COLUMNS,
  type HistoryRecord,
  type StoreReadColumn,
  type StoreReadNeeds,
  type StoreReadRow,
  type StoreRecord,
  type TrafficRecord,
} from './store.sql.ts';

function byKey<K, V>(keys: readonly K[], rows: readonly V[], keyOf: (row: V) => K): (V | null)[] {
  const map = new Map(rows.map((row) => [keyOf(row), row]));
  return keys.map((key) => map.get(key) ?? null);
}

// Stores are read with raw SQL rather than Prisma: the same StoreRecord, without the client's
// per-query compilation on the hot path.
export const storeById = defineLoader(
  (ctx) =>
    new DataLoader<number, StoreRecord | null>(async (ids) => {
      const stores = await queryByKeys<StoreRecord>(
        ctx.services.db.read,
        STORES_BY_ID,
        ids,
        'store-by-id',
      );
      for (const store of stores) storeByDomain(ctx).prime(store.domain, store);
      return byKey(ids, stores, (s) => s.id);
    }),
);

/** What a planned read carried along for one store, kept on the store so its fields answer at once. */
const CARRIED = Symbol('carried');
interface Carried {
  latestTraffic?: TrafficRecord | null;
  hasLegacy?: boolean;
}
type CarryingStore = StoreRecord & { [CARRIED]?: Carried };

/** The store's newest traffic month: what its read carried, else through the loader. */
export function latestTrafficOf(
  ctx: GraphqlContext,
  store: StoreRecord,
): TrafficRecord | null | Promise<TrafficRecord | null> {
  const carried = (store as CarryingStore)[CARRIED]?.latestTraffic;
  return carried !== undefined ? carried : latestTrafficByStoreId(ctx).load(store.id);
}

/** Whether the legacy store holds a summary of the store: what its read carried, else through the loader. */
export function hasLegacySummaryOf(
  ctx: GraphqlContext,
  store: StoreRecord,
): boolean | Promise<boolean> {
  const carried = (store as CarryingStore)[CARRIED]?.hasLegacy;
  return carried !== undefined ? carried : hasLegacySummary(ctx).load(store.domain);
}

/** Stores read by a list query are cached for the fields that look them up again by key. */
export function primeStores(ctx: GraphqlContext, stores: readonly StoreRecord[]): void {
  for (const store of stores) {
    storeById(ctx).prime(store.id, store);
    storeByDomain(ctx).prime(store.domain, store);
  }
}

/**
 * Stores read with what came along: the newest traffic month, the app stack and the co-located
 * legacy summary prime the loaders their fields use, so those fields cost no statement of their own.
 */
export function primeStoreReads(
  ctx: GraphqlContext,
  rows: readonly StoreReadRow[],
  needs: StoreReadNeeds,
): StoreRecord[] {
  const joinsLegacy = needs.legacy !== 'none' && ctx.services.legacy.colocatedTable !== undefined;
  const stores = rows.map(({ latestTraffic, apps, legacyDoc, legacyExists, ...row }) => {
    const store = row as CarryingStore & Record<string, unknown>;
    const carried: Carried = {};
    store[CARRIED] = carried;
    for (const { field, variant } of needs.extensions) {
      const alias = extensionAlias(field);
      storeReadPrimers.get(field)?.(ctx, store.id, store[alias] ?? null, variant);
      delete store[alias];
    }
    if (needs.traffic) {
      carried.latestTraffic = latestTraffic ?? null;
      latestTrafficByStoreId(ctx).prime(store.id, carried.latestTraffic);
    }
    if (needs.apps) appsByStoreId(ctx).prime(store.id, apps ?? []);
    if (joinsLegacy && needs.legacy === 'doc') {
      legacySummaryByDomain(ctx).prime(
        store.domain,
        legacyDoc ? canonicalFromDocument(legacyDoc) : null,
      );
      carried.hasLegacy = Boolean(legacyDoc);
      hasLegacySummary(ctx).prime(store.domain, carried.hasLegacy);
    }
    if (joinsLegacy && needs.legacy === 'exists') {
      carried.hasLegacy = Boolean(legacyExists);
      hasLegacySummary(ctx).prime(store.domain, carried.hasLegacy);
    }
    return store;
  });
  // a card read carries some columns only: it must not stand in for the whole row elsewhere
  if (needs.columns === 'all') primeStores(ctx, stores);
  return stores;
}

/** How each extension column (addStoreReadColumn) reaches its feature's loader. */
const storeReadPrimers = new Map<
  string,
  (ctx: GraphqlContext, storeId: number, value: unknown, variant?: string) => void
>();

/**
 * A feature's column on the planned store read (Store.observation's schedule row): when its field is
 * selected the column comes along in the store's statement and `prime` hands the value (null when
 * there is none) to the feature's loader, with the column's variant when it has variants.
 */
export function extendStoreRead(
  column: StoreReadColumn & {
    prime: (ctx: GraphqlContext, storeId: number, value: unknown, variant?: string) => void;
  },
): void {
  addStoreReadColumn(column);
  storeReadPrimers.set(column.field, column.prime);
}

/** Store fields that read the legacy summary's document (the models read its emails and socials). */
const LEGACY_DOCUMENT_FIELDS = ['screenshotUrl', 'socials', 'emails', 'models'];

/**
 * The needs of each selection seen: selectedFieldNames hands a document's selection back as the
 * same set each request, and the selections below it (selectedAt) are the document's too.
 */
const needsOfSelection = new WeakMap<ReadonlySet<string>, StoreReadNeeds>();

/**
 * What a store read needs, from the fields selected on the store; `selectedAt` (the names selected
 * below the store, by path) lets an extension carry only what its own selection reads.
 */
export function storeReadNeeds(
  selected: ReadonlySet<string>,
  selectedAt: SelectionAt,
): StoreReadNeeds {
  let needs = needsOfSelection.get(selected);
  if (!needs) {
    needs = Object.freeze({
      columns: [...selected].every((field) => CARD_FIELDS.has(field) || KEY_ONLY_FIELDS.has(field))
        ? 'card'
        : 'all',
      apps: selected.has('apps') || selected.has('models'),
      traffic: selected.has('traffic') || selected.has('sources') || selected.has('models'),
      legacy: LEGACY_DOCUMENT_FIELDS.some((field) => selected.has(field))
        ? 'doc'
        : selected.has('sources')
          ? 'exists'
          : 'none',
      extensions: Object.freeze(extensionsOf(selected, selectedAt)),
    } as const) as StoreReadNeeds;
    needsOfSelection.set(selected, needs);
  }
  return needs;
}

/**
 * Stores by canonical domain in one prepared statement that carries exactly what the selection
 * needs: the row alone for a plain lookup, plus the newest traffic month (and, co-located, whether a
 * legacy summary exists) for a card, plus the app stack and the legacy document for a full profile.
 * One loader per shape, so each keeps its batching.
 */
const byDomainLoaders = new Map<
  string,
  (ctx: GraphqlContext) => DataLoader<string, StoreRecord | null>
>();

/** The loader of each needs object seen, with the legacy table it was made for. */
const byDomainLoaderOfNeeds = new WeakMap<
  StoreReadNeeds,
  {
    table: string | undefined;
    loader: (ctx: GraphqlContext) => DataLoader<string, StoreRecord | null>;
  }
>();

/** Keys are canonical domains (see normalizeDomain). */
export function storeReadByDomain(
  ctx: GraphqlContext,
  wanted: StoreReadNeeds,
): DataLoader<string, StoreRecord | null> {
  const table = ctx.services.legacy.colocatedTable;
  const known = byDomainLoaderOfNeeds.get(wanted);
  if (known && known.table === table) return known.loader(ctx);
  // a separate legacy store (MongoDB) is read by its own loader, never joined
  const needs = table ? wanted : { ...wanted, legacy: 'none' as const };
  const shape = `${needs.columns === 'card' ? '-card' : ''}${needs.apps ? '-apps' : ''}${needs.traffic ? '-traffic' : ''}${needs.legacy === 'none' ? '' : `-legacy-${needs.legacy}`}${needs.extensions.map(({ field, variant }) => `-${field}${variant ? `.${variant}` : ''}`).join('')}`;
  let loader = byDomainLoaders.get(shape);
  if (!loader) {
    const name = `stores-by-domain${shape}`;
    const read = storesByDomainSql(needs, table);
    loader = defineLoader(
      (ctx) =>
        new DataLoader<string, StoreRecord | null>(async (domains) => {
          const rows = await queryByKeys<StoreReadRow>(ctx.services.db.read, read, domains, name);
          return byKey(domains, primeStoreReads(ctx, rows, needs), (s) => s.domain);
        }),
    );
    byDomainLoaders.set(shape, loader);
  }
  byDomainLoaderOfNeeds.set(wanted, { table, loader });
  return loader(ctx);
}

/** The row alone, by canonical domain. */
const ROW_ALONE: StoreReadNeeds = Object.freeze({
  columns: 'all',
  apps: false,
  traffic: false,
  legacy: 'none',
  extensions: [],
});
export const storeByDomain = (ctx: GraphqlContext) => storeReadByDomain(ctx, ROW_ALONE);

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

/** Whether the legacy store holds a summary of each domain (for `sources`): primed by a store read that joined it, else read through the summaries. */
export const hasLegacySummary = defineLoader(
  (ctx) =>
    new DataLoader<string, boolean>(async (domains) => {
      const summaries = await legacySummaryByDomain(ctx).loadMany(domains);
      return summaries.map((summary) => Boolean(summary) && !(summary instanceof Error));
    }),
);

/** The newest third-party traffic month of each store; null when the store has no coverage. */
export const latestTrafficByStoreId = defineLoader(
  (ctx) =>
    new DataLoader<number, TrafficRecord | null>(async (storeIds) => {
      const rows = await queryByKeys<TrafficRecord>(
        ctx.services.db.read,
        LATEST_TRAFFIC_BY_STORE,
        storeIds,
        'latest-traffic-by-store',
      );
      return byKey(storeIds, rows, (r) => r.storeId);
    }),
);

/** Monthly traffic points, newest month first. */
export const trafficPage = defineLoader((ctx) =>
  childPageLoader<TrafficRecord>(ctx.services.db.read, {
    name: 'store-traffic',
    select: TRAFFIC_COLUMNS,
    from: 'traffic_monthly t',
    parentColumn: 't.store_id',
    orderBy: 't.month DESC',
  }),
);

/** Daily snapshots, newest day first. */
export const historyPage = defineLoader((ctx) =>
  childPageLoader<HistoryRecord>(ctx.services.db.read, {
    name: 'store-history',
    select: HISTORY_COLUMNS,
    from: 'store_daily_snapshots h',
    parentColumn: 'h.store_id',
    orderBy: 'h.day DESC',
  }),
);

/** Stores observed running an app, by modeled monthly visits (highest first). */
export const appStoresPage = defineLoader((ctx) =>
  childPageLoader<StoreRecord>(ctx.services.db.read, {
    name: 'app-stores',
    select: storeColumns('s'),
    from: 'store_apps sa JOIN stores s ON s.id = sa.store_id',
    parentColumn: 'sa.app_id',
    orderBy: 's.monthly_visits DESC, s.id',
    // as the store search's app filter (store-filter.ts): a semi-join the planner can run either way
    onePage: `SELECT $1::int AS "__parentId", ${storeColumns('s')} FROM stores s
      WHERE EXISTS (SELECT 1 FROM store_apps sa WHERE sa.store_id = s.id AND sa.app_id = $1)
      ORDER BY s.monthly_visits DESC, s.id LIMIT $3 OFFSET $2`,
  }),
);
