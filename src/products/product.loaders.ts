// Per-request product loaders: by id (node), by (domain, handle), and a store's product pages.
import DataLoader from 'dataloader';
import {
  carriedRows,
  carriedWhole,
  childPageLoader,
  type ChildListSpec,
} from '../graphql/child-pages.ts';
import { defineLoader } from '../graphql/context.ts';
import { keyedRead, queryByKeys, queryRows } from '../platform/database/sql.ts';
import { PRODUCT_COLUMNS, PRODUCTS_WITH_STORE, type ProductRecord } from './product.sql.ts';

const PRODUCTS_BY_ID = keyedRead(
  'p.id',
  'int',
  (keys) => `SELECT ${PRODUCT_COLUMNS} FROM ${PRODUCTS_WITH_STORE} WHERE ${keys}`,
);

export const productById = defineLoader(
  (ctx) =>
    new DataLoader<number, ProductRecord | null>(async (ids) => {
      const rows = await queryByKeys<ProductRecord>(
        ctx.services.db.read,
        PRODUCTS_BY_ID,
        ids,
        'products-by-id',
      );
      const byId = new Map(rows.map((r) => [r.id, r]));
      return ids.map((id) => byId.get(id) ?? null);
    }),
);

export interface ProductKey {
  domain: string;
  handle: string;
}

export const productByDomainHandle = defineLoader(
  (ctx) =>
    new DataLoader<ProductKey, ProductRecord | null, string>(
      async (keys) => {
        const rows = await queryRows<ProductRecord>(
          ctx.services.db.read,
          `SELECT ${PRODUCT_COLUMNS} FROM ${PRODUCTS_WITH_STORE}
           WHERE (s.domain, p.handle) IN (SELECT * FROM unnest($1::text[], $2::text[]))`,
          [keys.map((k) => k.domain), keys.map((k) => k.handle)],
        );
        const byKey = new Map(rows.map((r) => [`${r.domain}/${r.handle}`, r]));
        return keys.map((k) => byKey.get(`${k.domain}/${k.handle}`) ?? null);
      },
      { cacheKeyFn: (k) => `${k.domain}/${k.handle}` },
    ),
);

/** A store's products: best-sellers first by rank, then the rest by id; `condition` narrows them. */
const storeProductList = (name: string, condition?: string): ChildListSpec => ({
  name,
  select: PRODUCT_COLUMNS,
  from: PRODUCTS_WITH_STORE,
  parentColumn: 'p.store_id',
  condition,
  orderBy: 'p.is_best_seller DESC, p.best_seller_rank ASC NULLS LAST, p.id',
});

const ALL_PRODUCTS = storeProductList('store-products');
const allProducts = defineLoader((ctx) =>
  childPageLoader<ProductRecord>(ctx.services.db.read, ALL_PRODUCTS),
);

/**
 * Best-sellers or the rest. A store whose whole list its read carried (into `allProducts`) answers
 * from it too: the same order, filtered. Taken when the loader is first asked for, after the stores
 * were read, so a request that never narrows its products pays nothing for it.
 */
const narrowedProducts = (spec: ChildListSpec, keep: (product: ProductRecord) => boolean) =>
  defineLoader((ctx) => {
    const loader = childPageLoader<ProductRecord>(ctx.services.db.read, spec);
    for (const [storeId, rows] of allProducts(ctx).carried)
      if (carriedWhole(rows)) loader.carry(storeId, rows.filter(keep));
    return loader;
  });

export const storeProductsPage = {
  all: allProducts,
  bestSellers: narrowedProducts(
    storeProductList('store-products-best-sellers', 'p.is_best_seller'),
    (p) => p.isBestSeller,
  ),
  others: narrowedProducts(
    storeProductList('store-products-others', 'NOT p.is_best_seller'),
    (p) => !p.isBestSeller,
  ),
};

/**
 * A store's first products as its own statement carries them (Store.products): the store is the
 * statement's `s`, so its domain needs no join; JSON holds the timestamps as text.
 */
export const carriedProducts = carriedRows<ProductRecord>(
  { ...ALL_PRODUCTS, from: 'products p' },
  's.id',
  (row) =>
    ({
      ...row,
      publishedAt: row.publishedAt == null ? null : new Date(row.publishedAt as string),
      updatedAt: new Date(row.updatedAt as string),
    }) as ProductRecord,
);
