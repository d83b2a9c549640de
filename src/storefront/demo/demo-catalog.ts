// What a demo storefront shows of a synthetic (.example) store: the store, its apps and products as
// the catalog holds them, with one difference a scrape records as a change (the best seller not on
// sale yet is shown at 10 % off) and stock that sells a few units at every read of a product, so
// a Signals watch estimates sales from its second probe on. The two stores of the storefront
// examples that the catalog lacks (UNLISTED) are shown as small stores of their own until a scrape
// brings them into the catalog.
import type pg from 'pg';
import { LRUCache } from 'lru-cache';
import { UNLISTED } from '../../seed/seeded-catalog.ts';
import type { ObservedProduct } from '../read-storefront.ts';

/** A product as the storefront shows it, with its storefront id (the demo storefront's product and variant ids; see storefrontProductId). */
export interface DemoProduct extends ObservedProduct {
  id: number;
}

export interface DemoStore {
  domain: string;
  name: string;
  themeName: string | null;
  currency: string;
  countryCode: string | null;
  /** per installed app, a text its detection patterns match (a loader host or a marker) */
  appLiterals: string[];
  products: DemoProduct[];
}

/** The price a storefront's sale shows: 10 % off, to the cent. */
export const salePrice = (price: number): number => Math.round(price * 90) / 100;

/** A pattern that is plain text once `\.` is undone and `\b` dropped ("cdn\.judge\.me" -> cdn.judge.me), or null. */
export function literalOfPatterns(patterns: readonly string[]): string | null {
  const plain = patterns
    .map((p) => p.replace(/\\b/g, '').replace(/\\\./g, '.'))
    .filter((text) => /^[a-z0-9._/-]+$/i.test(text));
  return plain.find((text) => text.includes('.')) ?? plain[0] ?? null;
}

interface ProductRow {
  id: number;
  handle: string;
  title: string;
  vendor: string | null;
  product_type: string | null;
  price: string;
  compare_at_price: string | null;
  available: boolean;
  variant_count: number;
  image_url: string | null;
  published_at: Date | null;
  best_seller_rank: number | null;
}

/** The unlisted example stores as their storefronts show them before any scrape. */
const UNLISTED_STORES: Record<
  string,
  {
    name: string;
    apps: string[];
    products: Array<[handle: string, title: string, type: string, price: number]>;
  }
> = {
  [UNLISTED.store]: {
    name: 'New Brand',
    apps: ['judgeme', 'klaviyo-email-marketing'],
    products: [
      ['organic-cotton-tee', 'Organic Cotton Tee', 'T-Shirts', 24],
      ['everyday-hoodie', 'Everyday Hoodie', 'Hoodies', 58],
      ['canvas-tote-bag', 'Canvas Tote Bag', 'Bags', 18],
    ],
  },
  [UNLISTED.otherStore]: {
    name: 'Other Brand',
    apps: ['judgeme'],
    products: [['ceramic-table-lamp', 'Ceramic Table Lamp', 'Lamps', 45]],
  },
};

/** The storefront's own id of an unlisted store's product, by its place in the list. */
const unlistedProductId = (domain: string, index: number) =>
  900_000_000 + index + (domain === UNLISTED.store ? 0 : 100);

/**
 * The id the storefront shows for a product: our catalog's row id, except for the unlisted stores,
 * whose storefronts had their ids before a scrape brought them into the catalog and keep them (a
 * watch probed on either side of that scrape reads the same variants).
 */
function storefrontProductId(domain: string, handle: string, rowId: number): number {
  const index = UNLISTED_STORES[domain]?.products.findIndex(([shown]) => shown === handle) ?? -1;
  return index === -1 ? rowId : unlistedProductId(domain, index);
}

async function unlistedStore(
  pool: Pick<pg.Pool, 'query'>,
  domain: string,
): Promise<DemoStore | null> {
  const shown = UNLISTED_STORES[domain];
  if (!shown) return null;
  const { rows: apps } = await pool.query<{ detection_patterns: string[] }>(
    'SELECT detection_patterns FROM apps WHERE slug = ANY($1::text[]) ORDER BY slug',
    [shown.apps],
  );
  return {
    domain,
    name: shown.name,
    themeName: 'Dawn',
    currency: 'USD',
    countryCode: 'US',
    appLiterals: apps.flatMap((app) => literalOfPatterns(app.detection_patterns) ?? []),
    products: shown.products.map(([handle, title, productType, price], i) => ({
      id: unlistedProductId(domain, i),
      handle,
      title,
      vendor: shown.name,
      productType,
      price,
      compareAtPrice: null,
      available: true,
      variantCount: 1,
      imageUrl: null,
      publishedAt: new Date('2026-01-05T00:00:00Z'),
      bestSellerRank: i + 1,
    })),
  };
}

async function readStore(pool: Pick<pg.Pool, 'query'>, domain: string): Promise<DemoStore | null> {
  const {
    rows: [store],
  } = await pool.query<{
    id: number;
    name: string;
    theme_name: string | null;
    currency: string;
    country_code: string | null;
  }>('SELECT id, name, theme_name, currency, country_code FROM stores WHERE domain = $1', [domain]);
  if (!store) return unlistedStore(pool, domain);
  const { rows: apps } = await pool.query<{ detection_patterns: string[] }>(
    'SELECT a.detection_patterns FROM store_apps sa JOIN apps a ON a.id = sa.app_id WHERE sa.store_id = $1 ORDER BY a.slug',
    [store.id],
  );
  const { rows: products } = await pool.query<ProductRow>(
    `SELECT id, handle, title, vendor, product_type, price::text AS price, compare_at_price::text AS compare_at_price, available,
            variant_count, image_url, published_at, best_seller_rank
       FROM products WHERE store_id = $1 ORDER BY id`,
    [store.id],
  );
  // the best seller not on sale yet goes on sale on the storefront: the scrape records a price drop
  const onSale = products
    .filter((p) => p.compare_at_price === null && Number(p.price) >= 1)
    .sort((a, b) => (a.best_seller_rank ?? 1e9) - (b.best_seller_rank ?? 1e9) || a.id - b.id)[0];
  return {
    domain,
    name: store.name,
    themeName: store.theme_name,
    currency: store.currency.trim(),
    countryCode: store.country_code?.trim() || null,
    appLiterals: apps.flatMap((app) => literalOfPatterns(app.detection_patterns) ?? []),
    products: products.map((p) => ({
      id: storefrontProductId(domain, p.handle, p.id),
      handle: p.handle,
      title: p.title,
      vendor: p.vendor,
      productType: p.product_type,
      price: p === onSale ? salePrice(Number(p.price)) : Number(p.price),
      compareAtPrice:
        p === onSale
          ? Number(p.price)
          : p.compare_at_price === null
            ? null
            : Number(p.compare_at_price),
      available: p.available,
      variantCount: Math.max(1, p.variant_count),
      imageUrl: p.image_url,
      publishedAt: p.published_at,
      bestSellerRank: p.best_seller_rank,
    })),
  };
}

const hash = (text: string): number => {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619) >>> 0;
  return h;
};

export interface DemoCatalog {
  /** the store as its storefront shows it, or null when the catalog has no such synthetic store */
  store(domain: string): Promise<DemoStore | null>;
  /**
   * Units in stock of a variant now, each read selling 1 to 3 units (a new variant starts with
   * 40 to 199); a variant about to sell out is restocked.
   */
  readStock(domain: string, variantId: number): number;
}

export function demoCatalog(pool: Pick<pg.Pool, 'query'>): DemoCatalog {
  // a storefront is read a dozen times in a scrape: the catalog is asked once per store per few seconds
  const stores = new LRUCache<string, { store: DemoStore | null }>({ max: 500, ttl: 5_000 });
  const stock = new LRUCache<string, { units: number; reads: number }>({ max: 100_000 });
  return {
    async store(domain) {
      let entry = stores.get(domain);
      if (!entry) {
        entry = { store: await readStore(pool, domain) };
        stores.set(domain, entry);
      }
      return entry.store;
    },
    readStock(domain, variantId) {
      const key = `${domain}#${variantId}`;
      const seed = hash(key);
      const entry = stock.get(key) ?? { units: 40 + (seed % 160), reads: 0 };
      entry.reads += 1;
      entry.units -= 1 + (hash(`${key}#${entry.reads}`) % 3);
      if (entry.units < 3) entry.units = 40 + (seed % 160);
      stock.set(key, entry);
      return entry.units;
    },
  };
}
