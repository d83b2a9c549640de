// The one writer of an observation (a scrape, a scheduled re-observation, a discovered store, the
// observation after a Signals probe) into the structured store, inside the caller's transaction: the store row with its observed inputs and
// modeled outputs, its products, its app installs (and the apps' install counts), the change
// records against the previous observation and today's history snapshot (one per store and day,
// marked as observed; INSERT ... ON CONFLICT on (store, day), which also works on a table
// partitioned by day). The row lock on the store serialises two observations of the same store.
import type pg from 'pg';
import { checkAlertsBefore, recordAlertMatches } from '../alerts/alert-matching.ts';
import { countPeriodChanges, countStoreDimensions } from '../apps/app-trend-rollups.ts';
import type { ChangeFacts } from '../change-feed/change.sql.ts';
import type { ReferenceData } from '../seed/reference-data.ts';
import { percentChange } from '../stores/model/growth.ts';
import { diffObservations, type PreviousObservation } from './catalog-diff.ts';
import { classifyByProductTypes } from './classify.ts';
import type { StorefrontObservation } from './read-storefront.ts';
import { medianPriceUsd, modelStore } from './store-models.ts';
import { clip } from './storefront-text.ts';

export interface CatalogWrite {
  storeId: number;
  /** false on the store's first observation */
  known: boolean;
  changes: number;
  /** the modeled monthly visits written (the scheduler's popularity) */
  monthlyVisits: number;
  /** the change records written */
  changeRecords: ChangeFacts[];
}

interface StoreRow {
  id: number;
  name: string;
  theme_name: string | null;
  vertical: string | null;
  industry: string | null;
  category: string | null;
  country_code: string | null;
  social_followers: number;
  last_scraped_at: Date | null;
}

const DAY_MS = 86_400_000;
const dayOf = (date: Date) => date.toISOString().slice(0, 10);

/**
 * An app a storefront can show, by the alias of its `apps` row: one data/apps.json marks not
 * detectable is stored with no patterns ('{}'); NULL is a row whose patterns were never given.
 */
const storefrontShows = (apps: string) => `${apps}.detection_patterns IS DISTINCT FROM '{}'`;

export async function writeObservation(
  client: pg.PoolClient,
  observation: StorefrontObservation,
  context: { now: Date; reference: ReferenceData; legacyId: string },
): Promise<CatalogWrite> {
  const { now, reference } = context;
  const {
    rows: [previousStore],
  } = await client.query<StoreRow>(
    `SELECT id, name, theme_name, vertical, industry, category, country_code, social_followers, last_scraped_at
       FROM stores WHERE domain = $1 FOR UPDATE`,
    [observation.domain],
  );
  const catalog = previousStore ? await readPrevious(client, previousStore) : null;
  // a store the catalog lists but never observed gets its baseline: every product and app "new" would be false
  const observedBefore =
    catalog &&
    (previousStore!.last_scraped_at !== null || catalog.products.size + catalog.apps.size > 0);
  const previous = observedBefore ? catalog : null;

  const currency = observation.currency ?? 'USD';
  const usdRate =
    currency === 'USD' ? 1 : reference.countries.find((c) => c.currency === currency)?.usdRate;
  const median = medianPriceUsd(
    observation.products.map((p) => p.price),
    usdRate,
  );
  const classification = classifyByProductTypes(
    observation.products.map((p) => p.productType),
    reference.verticals,
  );
  const vertical = classification?.vertical ?? previousStore?.vertical ?? null;
  // saved-search alerts the store matches before this write (a match is a store newly matching)
  const alerts = await checkAlertsBefore(client, previousStore?.id ?? null, {
    appSlugs: observation.apps.map((a) => a.slug),
    countryCode: observation.countryCode ?? previousStore?.country_code ?? null,
    vertical,
    industry: classification?.industry ?? previousStore?.industry ?? null,
    category: classification ? classification.category : (previousStore?.category ?? null),
    theme: observation.themeName ?? previousStore?.theme_name ?? null,
    newName: previousStore?.name !== clip(observation.name, 300),
  });
  const thirdParty = previousStore ? await latestThirdParty(client, previousStore.id) : null;
  const models = modelStore(observation, {
    medianPriceUsd: median,
    vertical,
    socialFollowers: previousStore?.social_followers ?? 0,
    thirdParty,
  });
  const monthAgo = previousStore
    ? await snapshotBefore(client, previousStore.id, new Date(now.getTime() - 30 * DAY_MS))
    : null;

  const countryCode = observation.countryCode ?? previousStore?.country_code ?? null;
  const {
    rows: [stored],
  } = await client.query<{ id: number }>(
    `INSERT INTO stores (domain, name, legacy_id, country_code, currency, industry, vertical, category, theme_name,
       product_count, best_seller_count, app_count, median_price_usd, social_followers, dropship_signals,
       monthly_visits, revenue_low_usd, revenue_high_usd, conversion_low_pct, conversion_high_pct,
       average_order_value_usd, ad_spend_usd, is_dropshipper, dropshipper_score, service_rating, service_grade,
       visits_change_pct, revenue_change_pct, first_seen_at, last_scraped_at, updated_at)
     VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17,$18,$19,$20,$21,$22,$23,$24,$25,$26,$27,$28,$29,$29,$29)
     ON CONFLICT (domain) DO UPDATE SET
       name = excluded.name, legacy_id = COALESCE(stores.legacy_id, excluded.legacy_id),
       country_code = excluded.country_code, currency = excluded.currency, industry = excluded.industry,
       vertical = excluded.vertical, category = excluded.category, theme_name = excluded.theme_name,
       product_count = excluded.product_count, best_seller_count = excluded.best_seller_count,
       app_count = excluded.app_count + (SELECT count(*)::int FROM store_apps sa JOIN apps a ON a.id = sa.app_id
         WHERE sa.store_id = stores.id AND NOT ${storefrontShows('a')}),
       median_price_usd = excluded.median_price_usd,
       dropship_signals = excluded.dropship_signals, monthly_visits = excluded.monthly_visits,
       revenue_low_usd = excluded.revenue_low_usd, revenue_high_usd = excluded.revenue_high_usd,
       conversion_low_pct = excluded.conversion_low_pct, conversion_high_pct = excluded.conversion_high_pct,
       average_order_value_usd = excluded.average_order_value_usd, ad_spend_usd = excluded.ad_spend_usd,
       is_dropshipper = excluded.is_dropshipper, dropshipper_score = excluded.dropshipper_score,
       service_rating = excluded.service_rating, service_grade = excluded.service_grade,
       visits_change_pct = excluded.visits_change_pct, revenue_change_pct = excluded.revenue_change_pct,
       last_scraped_at = excluded.last_scraped_at, updated_at = excluded.updated_at
     RETURNING id`,
    [
      observation.domain,
      clip(observation.name, 300),
      context.legacyId,
      countryCode,
      currency,
      classification?.industry ?? previousStore?.industry ?? null,
      vertical,
      classification ? classification.category : (previousStore?.category ?? null),
      observation.themeName ?? previousStore?.theme_name ?? null,
      observation.products.length,
      observation.products.filter((p) => p.bestSellerRank !== null).length,
      observation.apps.length,
      median,
      previousStore?.social_followers ?? 0,
      observation.dropshipSignals,
      models.monthlyVisits,
      models.revenueLowUsd,
      models.revenueHighUsd,
      models.conversionLowPct,
      models.conversionHighPct,
      models.averageOrderValueUsd,
      models.adSpendUsd,
      models.isDropshipper,
      models.dropshipperScore,
      models.serviceRating,
      models.serviceGrade,
      monthAgo ? percentChange(monthAgo.monthly_visits, models.monthlyVisits) : null,
      monthAgo ? percentChange(monthAgo.revenue_high_usd, models.revenueHighUsd) : null,
      now,
    ],
  );
  const storeId = stored!.id;
  await countStoreDimensions(
    client,
    storeId,
    previousStore
      ? { vertical: previousStore.vertical, countryCode: previousStore.country_code }
      : null,
    { vertical, countryCode },
    now,
  );

  const changes = await writeCatalog(client, storeId, previous, { ...observation, currency }, now);
  await client.query(
    `INSERT INTO store_daily_snapshots (store_id, day, monthly_visits, revenue_low_usd, revenue_high_usd, service_rating, product_count, synthetic)
     VALUES ($1, $2, $3, $4, $5, $6, $7, false)
     ON CONFLICT (store_id, day) DO UPDATE SET monthly_visits = excluded.monthly_visits, revenue_low_usd = excluded.revenue_low_usd,
       revenue_high_usd = excluded.revenue_high_usd, service_rating = excluded.service_rating, product_count = excluded.product_count,
       synthetic = false`,
    [
      storeId,
      dayOf(now),
      models.monthlyVisits,
      models.revenueLowUsd,
      models.revenueHighUsd,
      models.serviceRating,
      observation.products.length,
    ],
  );
  await recordAlertMatches(client, alerts, storeId, now);
  return {
    storeId,
    known: previousStore !== undefined,
    changes: changes.length,
    monthlyVisits: models.monthlyVisits,
    changeRecords: changes,
  };
}

/** What the catalog keeps of an observation: its products and apps, and the theme and currency the diff reads. */
export type CatalogObservation = Pick<StorefrontObservation, 'themeName' | 'products' | 'apps'> & {
  currency: string;
};

/**
 * Writes an observation's products and app installs and records its differences from `previous`
 * (none on a store's first observation) as change records detected at `now`. Inside the caller's
 * transaction, which holds the store's row lock.
 */
async function writeCatalog(
  client: pg.PoolClient,
  storeId: number,
  previous: PreviousObservation | null,
  observation: CatalogObservation,
  now: Date,
): Promise<ChangeFacts[]> {
  const { currency } = observation;
  await writeProducts(client, storeId, observation, currency, now);
  const changes = previous
    ? diffObservations(previous, {
        themeName: observation.themeName,
        currency,
        products: observation.products,
        apps: observation.apps,
      })
    : [];
  if (changes.length > 0) {
    await client.query(
      `INSERT INTO change_records (store_id, entity, change_type, subject, summary, old_value, new_value, change_pct, detected_at)
       SELECT $1, entity, "changeType", subject, summary, "oldValue", "newValue", "changePct", $3
         FROM jsonb_to_recordset($2::jsonb) AS x(entity text, "changeType" text, subject text, summary text,
              "oldValue" text, "newValue" text, "changePct" double precision)`,
      [storeId, JSON.stringify(changes), now],
    );
  }
  await writeInstalls(client, storeId, observation, now, previous !== null);
  return changes;
}

/**
 * The catalog's current products, apps and theme of a store: what the next observation is diffed against.
 * One statement after the other: a connection runs one at a time anyway, and pg deprecates queueing a
 * second query on a client that is still executing one (removed in pg 9).
 */
async function readPrevious(
  client: pg.PoolClient,
  store: Pick<StoreRow, 'id' | 'theme_name'>,
): Promise<PreviousObservation> {
  const products = await client.query<{ handle: string; title: string; price: string }>(
    'SELECT handle, title, price FROM products WHERE store_id = $1',
    [store.id],
  );
  // only apps a storefront can show: one that is not detectable is never seen gone
  const apps = await client.query<{ id: number; slug: string; name: string }>(
    `SELECT a.id, a.slug, a.name FROM store_apps sa JOIN apps a ON a.id = sa.app_id
      WHERE sa.store_id = $1 AND ${storefrontShows('a')}`,
    [store.id],
  );
  return {
    themeName: store.theme_name,
    products: new Map(
      products.rows.map((r) => [r.handle, { title: r.title, price: Number(r.price) }]),
    ),
    apps: new Map(apps.rows.map((r) => [r.slug, { id: r.id, name: r.name }])),
  };
}

async function latestThirdParty(client: pg.PoolClient, storeId: number) {
  const {
    rows: [row],
  } = await client.query<{ visits: number; paid_pct: number }>(
    'SELECT visits, paid_pct FROM traffic_monthly WHERE store_id = $1 ORDER BY month DESC LIMIT 1',
    [storeId],
  );
  return row ? { visits: row.visits, paidPct: row.paid_pct } : null;
}

async function snapshotBefore(client: pg.PoolClient, storeId: number, date: Date) {
  const {
    rows: [row],
  } = await client.query<{ monthly_visits: number; revenue_high_usd: number }>(
    'SELECT monthly_visits, revenue_high_usd FROM store_daily_snapshots WHERE store_id = $1 AND day <= $2 ORDER BY day DESC LIMIT 1',
    [storeId, dayOf(date)],
  );
  return row ?? null;
}

/**
 * Locks, in term order and in one statement, every row of the product search vocabulary that this
 * write of a store's products will change (the words of titles added, renamed or removed; a term
 * new to the vocabulary is inserted with 0 for the triggers to count). The vocabulary's statement
 * triggers then count under locks this transaction already holds, so two observations of stores
 * sharing words never lock them in different orders (a deadlock). Titles that stay lock nothing.
 */
async function lockVocabularyOf(
  client: pg.PoolClient,
  storeId: number,
  products: Pick<CatalogObservation, 'products'>['products'],
) {
  await client.query(
    `WITH incoming AS (SELECT * FROM unnest($2::text[], $3::text[]) AS i(handle, title)),
     touched AS (
       SELECT unnest(p.search_terms) AS term
         FROM products p LEFT JOIN incoming i ON i.handle = p.handle
        WHERE p.store_id = $1 AND (i.handle IS NULL OR i.title IS DISTINCT FROM p.title)
       UNION
       SELECT unnest(search_terms(i.title))
         FROM incoming i LEFT JOIN products p ON p.store_id = $1 AND p.handle = i.handle
        WHERE p.handle IS NULL OR p.title IS DISTINCT FROM i.title
     )
     INSERT INTO product_search_vocabulary (term, products)
     SELECT term, 0 FROM touched WHERE term IS NOT NULL ORDER BY term COLLATE "C"
     ON CONFLICT (term) DO UPDATE SET products = product_search_vocabulary.products`,
    [storeId, products.map((p) => p.handle), products.map((p) => p.title)],
  );
}

async function writeProducts(
  client: pg.PoolClient,
  storeId: number,
  observation: Pick<CatalogObservation, 'products'>,
  currency: string,
  now: Date,
) {
  await lockVocabularyOf(client, storeId, observation.products);
  const rows = observation.products.map((p) => ({
    handle: p.handle,
    title: p.title,
    vendor: p.vendor,
    product_type: p.productType,
    price: p.price,
    compare_at_price: p.compareAtPrice,
    // products carry their currency only when it is not USD (spec usage rule 7)
    currency: currency === 'USD' ? null : currency,
    is_best_seller: p.bestSellerRank !== null,
    best_seller_rank: p.bestSellerRank,
    available: p.available,
    variant_count: p.variantCount,
    image_url: p.imageUrl,
    published_at: p.publishedAt?.toISOString() ?? null,
  }));
  await client.query(
    `INSERT INTO products (store_id, handle, title, vendor, product_type, price, compare_at_price, currency, is_best_seller,
       best_seller_rank, available, variant_count, image_url, published_at, updated_at)
     SELECT $1, handle, title, vendor, product_type, price, compare_at_price, currency, is_best_seller, best_seller_rank,
            available, variant_count, image_url, published_at, $3
       FROM jsonb_to_recordset($2::jsonb) AS x(handle text, title text, vendor text, product_type text, price numeric,
            compare_at_price numeric, currency text, is_best_seller boolean, best_seller_rank int, available boolean,
            variant_count smallint, image_url text, published_at timestamptz)
     ON CONFLICT (store_id, handle) DO UPDATE SET
       title = excluded.title, vendor = excluded.vendor, product_type = excluded.product_type, price = excluded.price,
       compare_at_price = excluded.compare_at_price, currency = excluded.currency, is_best_seller = excluded.is_best_seller,
       best_seller_rank = excluded.best_seller_rank, available = excluded.available, variant_count = excluded.variant_count,
       image_url = excluded.image_url, published_at = excluded.published_at, updated_at = excluded.updated_at`,
    [storeId, JSON.stringify(rows), now],
  );
  await client.query(
    'DELETE FROM products WHERE store_id = $1 AND NOT (handle = ANY($2::text[]))',
    [storeId, observation.products.map((p) => p.handle)],
  );
}

/**
 * The store's current app set (store_apps, apps.install_count) and its install periods
 * (store_app_periods): an app new to the set opens a period, an app gone closes it. An app a
 * storefront cannot show (data/apps.json notDetectable) is never gone: its recorded install stays.
 * @param seenBefore false on the store's first observation: its apps were already running, not seen installing
 */
async function writeInstalls(
  client: pg.PoolClient,
  storeId: number,
  observation: Pick<CatalogObservation, 'apps'>,
  now: Date,
  seenBefore: boolean,
) {
  const appIds = observation.apps.map((a) => a.id);
  // an install of an app not detectable from a storefront stays as recorded
  const { rows: removed } = await client.query<{ app_id: number }>(
    `DELETE FROM store_apps WHERE store_id = $1 AND NOT (app_id = ANY($2::int[]))
        AND app_id IN (SELECT id FROM apps WHERE ${storefrontShows('apps')})
      RETURNING app_id`,
    [storeId, appIds],
  );
  // xmax = 0 marks a row this statement inserted: a new install, not a store seen running it again
  const { rows: upserted } = await client.query<{ app_id: number; inserted: boolean }>(
    `INSERT INTO store_apps (store_id, app_id, first_seen_at, last_seen_at)
     SELECT $1, unnest($2::int[]), $3, $3
     ON CONFLICT (store_id, app_id) DO UPDATE SET last_seen_at = excluded.last_seen_at
     RETURNING app_id, (xmax = 0) AS inserted`,
    [storeId, appIds, now],
  );
  const installed = upserted.filter((r) => r.inserted).map((r) => r.app_id);
  const uninstalled = removed.map((r) => r.app_id);
  if (installed.length + uninstalled.length === 0) return;
  await client.query(
    `UPDATE apps SET install_count = GREATEST(0, install_count + CASE WHEN id = ANY($1::int[]) THEN 1 ELSE -1 END)
      WHERE id = ANY($1::int[]) OR id = ANY($2::int[])`,
    [installed, uninstalled],
  );
  const { rows: closed } = await client.query<{ app_id: number }>(
    `UPDATE store_app_periods SET uninstalled_at = $3
      WHERE store_id = $1 AND app_id = ANY($2::int[]) AND uninstalled_at IS NULL RETURNING app_id`,
    [storeId, uninstalled, now],
  );
  // ON CONFLICT: a period left open by a catalog written before periods were kept is continued
  const { rows: opened } = await client.query<{ app_id: number }>(
    `INSERT INTO store_app_periods (store_id, app_id, installed_at, seen_installing)
     SELECT $1, unnest($2::int[]), $3, $4
     ON CONFLICT (store_id, app_id) WHERE uninstalled_at IS NULL DO NOTHING RETURNING app_id`,
    [storeId, installed, now, seenBefore],
  );
  await countPeriodChanges(
    client,
    storeId,
    {
      opened: opened.map((r) => ({ appId: r.app_id, seenInstalling: seenBefore })),
      closed: closed.map((r) => r.app_id),
    },
    now,
  );
}
