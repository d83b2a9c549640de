// The hand-written SQL of store reads: every column of `stores` aliased to the Prisma model's field
// names (so a row from a hand-written query is the same StoreRecord a Prisma query returns), the
// newest traffic month and the app stack as subqueries, the child lists' columns, and the card
// statement planned from what a selection needs.
import type { StoreDailySnapshot, TrafficMonthly } from '../generated/prisma/client.ts';
import type { Store } from '../generated/prisma/client.ts';
import { APP_COLUMNS, type AppRecord } from '../apps/app.sql.ts';
import { keyedRead, type KeyedRead } from '../platform/database/sql.ts';
import type { SelectionAt } from '../graphql/selection.ts';

export type StoreRecord = Store;

const COLUMN_OF: Record<keyof StoreRecord, string> = {
  id: 'id',
  domain: 'domain',
  name: 'name',
  legacyId: 'legacy_id',
  countryCode: 'country_code',
  currency: 'currency',
  industry: 'industry',
  vertical: 'vertical',
  category: 'category',
  themeName: 'theme_name',
  productCount: 'product_count',
  bestSellerCount: 'best_seller_count',
  appCount: 'app_count',
  medianPriceUsd: 'median_price_usd',
  socialFollowers: 'social_followers',
  dropshipSignals: 'dropship_signals',
  monthlyVisits: 'monthly_visits',
  revenueLowUsd: 'revenue_low_usd',
  revenueHighUsd: 'revenue_high_usd',
  conversionLowPct: 'conversion_low_pct',
  conversionHighPct: 'conversion_high_pct',
  averageOrderValueUsd: 'average_order_value_usd',
  adSpendUsd: 'ad_spend_usd',
  isDropshipper: 'is_dropshipper',
  dropshipperScore: 'dropshipper_score',
  serviceRating: 'service_rating',
  serviceGrade: 'service_grade',
  visitsChangePct: 'visits_change_pct',
  revenueChangePct: 'revenue_change_pct',
  firstSeenAt: 'first_seen_at',
  lastScrapedAt: 'last_scraped_at',
  updatedAt: 'updated_at',
};

/** `s.id AS "id", s.legacy_id AS "legacyId", ...` for a stores table aliased `alias`: every column, or only `fields`. */
export const storeColumns = (
  alias: string,
  fields: readonly (keyof StoreRecord)[] = Object.keys(COLUMN_OF) as (keyof StoreRecord)[],
): string => fields.map((field) => `${alias}.${COLUMN_OF[field]} AS "${field}"`).join(', ');

/** The columns a store card's fields read (spec part 2), plus the keys every read carries (id, domain). */
export const CARD_COLUMNS = [
  'id',
  'domain',
  'name',
  'monthlyVisits',
  'revenueLowUsd',
  'revenueHighUsd',
  'isDropshipper',
  'serviceRating',
  'serviceGrade',
  'vertical',
  'countryCode',
] as const satisfies readonly (keyof StoreRecord)[];

/** The Store fields served by CARD_COLUMNS alone (traffic and sources read by the store's id and domain). */
export const CARD_FIELDS: ReadonlySet<string> = new Set([
  '__typename',
  'id',
  'domain',
  'url',
  'name',
  'monthlyVisits',
  'monthlyRevenueUsd',
  'isDropshipper',
  'serviceRating',
  'serviceGrade',
  'vertical',
  'countryCode',
  'traffic',
  'sources',
]);

/** Store fields that read nothing of the row but its id or domain (lists and the crawler's schedule, loaded by key). */
export const KEY_ONLY_FIELDS: ReadonlySet<string> = new Set([
  'products',
  'history',
  'changes',
  'observation',
]);

// Days and months travel as 'YYYY-MM-DD' text: pg would turn a DATE into local midnight.
export type TrafficRecord = Omit<TrafficMonthly, 'month'> & { month: string };
export type HistoryRecord = Omit<StoreDailySnapshot, 'day'> & { day: string };

export const TRAFFIC_COLUMNS = `t.store_id AS "storeId", to_char(t.month, 'YYYY-MM-DD') AS month, t.visits, t.organic_pct AS "organicPct",
  t.paid_pct AS "paidPct", t.social_pct AS "socialPct", t.direct_pct AS "directPct",
  t.referral_pct AS "referralPct", t.source`;

export const HISTORY_COLUMNS = `h.store_id AS "storeId", to_char(h.day, 'YYYY-MM-DD') AS day, h.monthly_visits AS "monthlyVisits",
  h.revenue_low_usd AS "revenueLowUsd", h.revenue_high_usd AS "revenueHighUsd", h.service_rating AS "serviceRating",
  h.product_count AS "productCount", h.synthetic`;

/** The newest traffic month of each store in `storeIds` (one row per store that has one). */
export const LATEST_TRAFFIC_BY_STORE: KeyedRead = keyedRead(
  't.store_id',
  'int',
  (keys) =>
    `SELECT DISTINCT ON (t.store_id) ${TRAFFIC_COLUMNS} FROM traffic_monthly t WHERE ${keys} ORDER BY t.store_id, t.month DESC`,
);

/** Select-list column: the newest traffic month of the store `s` as JSON, or null. */
export const LATEST_TRAFFIC_COLUMN = `(SELECT row_to_json(latest) FROM (SELECT ${TRAFFIC_COLUMNS} FROM traffic_monthly t
  WHERE t.store_id = s.id ORDER BY t.month DESC LIMIT 1) latest) AS "latestTraffic"`;

/** Select-list column: the app stack of the store `s` as a JSON array, most installed first. */
export const APP_STACK_COLUMN = `(SELECT coalesce(json_agg(stack ORDER BY stack."installCount" DESC, stack.name), '[]'::json)
  FROM (SELECT ${APP_COLUMNS} FROM store_apps sa JOIN apps a ON a.id = sa.app_id WHERE sa.store_id = s.id) stack) AS apps`;

/** What a store read brings along besides the row, planned from the caller's selection. */
export interface StoreReadNeeds {
  /** the card's columns alone (every selected field is a card field), or the whole row */
  columns: 'card' | 'all';
  /** the app stack (the apps field, the models) */
  apps: boolean;
  /** the newest traffic month (traffic.latest, sources, the models) */
  traffic: boolean;
  /**
   * the legacy summary, joined when the legacy store is a table of this database: its document
   * (screenshot, socials, emails, the models) or only whether there is one (sources)
   */
  legacy: 'none' | 'exists' | 'doc';
  /** columns other features add when their Store field is selected (extendStoreRead) */
  extensions: readonly StoreReadExtension[];
}

/**
 * A select-list column another feature adds to the planned store read when its Store field is
 * selected (Store.observation), so the field costs no statement of its own: fixed SQL over the store
 * `s`, aliased `"ext_<field>"`, read back by that feature's `prime`.
 */
export interface StoreReadColumn {
  field: string;
  /** an expression over the store `s` (a scalar subquery); fixed SQL from code */
  expression: string | ((variant: string) => string);
  /**
   * For a column that reads only what the field's own selection needs (a store's products carry
   * the product columns their fields read): the variant a selection needs (letters and digits, part
   * of statement names), the whole one without a selection. `expression` then takes the variant.
   */
  variantOf?: (selectedAt?: SelectionAt) => string;
}

/** A feature's column a store read carries: its field, and the variant its selection needs. */
export interface StoreReadExtension {
  field: string;
  variant?: string;
}

const readColumns = new Map<string, StoreReadColumn>();

/** Registers a feature's column (at import, like its Pothos fields). */
export function addStoreReadColumn(column: StoreReadColumn): void {
  readColumns.set(column.field, column);
}

/** The registered fields among `selected`, each with the variant its selection below (`selectedAt`) needs. */
export const extensionsOf = (
  selected: ReadonlySet<string>,
  selectedAt: SelectionAt,
): StoreReadExtension[] =>
  [...readColumns.values()]
    .filter((column) => selected.has(column.field))
    .map(({ field, variantOf }) => ({
      field,
      variant: variantOf?.((path) => selectedAt([field, ...path])),
    }));

/** The alias of an extension's column in a row. */
export const extensionAlias = (field: string) => `ext_${field}`;

/** An extension's column in a select list. */
function extensionColumn({ field, variant }: StoreReadExtension): string {
  const { expression } = readColumns.get(field)!;
  const sql = typeof expression === 'string' ? expression : expression(variant ?? '');
  return `${sql} AS "${extensionAlias(field)}"`;
}

/** A store row as a planned read returns it: the row plus what the selection asked to come along. */
export type StoreReadRow = StoreRecord & {
  latestTraffic?: TrafficRecord | null;
  apps?: AppRecord[];
  legacyDoc?: Record<string, unknown> | null;
  legacyExists?: boolean | null;
};

/** Select-list column: the co-located legacy summary of the store `s` (its document, or true), null when there is none. */
const legacyColumn = (table: string, legacy: 'exists' | 'doc') =>
  legacy === 'doc'
    ? `(SELECT l.doc FROM ${table} l WHERE l.domain = s.domain) AS "legacyDoc"`
    : `(SELECT true FROM ${table} l WHERE l.domain = s.domain) AS "legacyExists"`;

/** The select list of a store read carrying what `needs` asks for; `legacyTable` is the co-located legacy table, fixed by the adapter. */
export const storeReadColumns = (needs: StoreReadNeeds, legacyTable?: string): string =>
  [
    storeColumns('s', needs.columns === 'card' ? CARD_COLUMNS : undefined),
    ...(needs.traffic ? [LATEST_TRAFFIC_COLUMN] : []),
    ...(needs.apps ? [APP_STACK_COLUMN] : []),
    ...(needs.legacy !== 'none' && legacyTable ? [legacyColumn(legacyTable, needs.legacy)] : []),
    ...needs.extensions.map(extensionColumn),
  ].join(',\n');

/** Stores by canonical domain, with what `needs` asks for. */
export const storesByDomainSql = (needs: StoreReadNeeds, legacyTable?: string): KeyedRead =>
  keyedRead(
    's.domain',
    'text',
    (keys) => `SELECT ${storeReadColumns(needs, legacyTable)} FROM stores s WHERE ${keys}`,
  );

export const STORES_BY_ID: KeyedRead = keyedRead(
  's.id',
  'int',
  (keys) => `SELECT ${storeColumns('s')} FROM stores s WHERE ${keys}`,
);
