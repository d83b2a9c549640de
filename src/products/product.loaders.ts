// Per-request product loaders: by id (node), by (domain, handle), and a store's product pages.
import DataLoader from 'dataloader';
import {
  carriedRows,
  carriedWhole,
  childPageLoader,
  type ChildListSpec,
  type ChildPageLoader,
} from '../graphql/child-pages.ts';
import { defineLoader, type GraphqlContext } from '../graphql/context.ts';
import { itemFieldNames, type SelectionAt } from '../graphql/selection.ts';
import { keyedRead, queryByKeys, queryRows } from '../platform/database/sql.ts';
import {
  PRODUCT_COLUMNS,
  PRODUCTS_WITH_STORE,
  productColumns,
  type ProductRecord,
} from './product.sql.ts';

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

/**
 * A store's product pages read the product columns their selection reads, in groups: the columns
 * every list reads (the best-seller flag narrows a carried list), then the product's ids and store,
 * the offer, the descriptive text and the dates, each when a selected field reads it. A variant names
 * its groups (a bitmask, in hex), so a store and its first page cost one statement of a few narrow
 * columns, and there are at most sixteen statement texts per list.
 */
const PRODUCT_GROUPS: readonly (readonly (keyof ProductRecord)[])[] = [
  ['handle', 'title', 'price', 'isBestSeller', 'bestSellerRank'],
  ['id', 'storeId', 'domain'],
  ['compareAtPrice', 'currency', 'available', 'variantCount'],
  ['vendor', 'productType', 'imageUrl'],
  ['publishedAt', 'updatedAt'],
];
/** every group: what a selection the groups do not know reads */
const WHOLE = (1 << PRODUCT_GROUPS.length) - 1;

/** The record keys a Product field reads besides its own name's. */
const KEYS_OF_FIELD: Readonly<Record<string, readonly (keyof ProductRecord)[]>> = {
  __typename: [],
  url: ['domain', 'handle'],
  store: ['storeId'],
};
const groupOf = new Map(
  PRODUCT_GROUPS.flatMap((keys, group) => keys.map((key) => [key as string, group])),
);

/** The variant (the groups' bitmask) that the fields selected on a page's products read. */
function variantOfFields(selected: Iterable<string>): number {
  let mask = 1;
  for (const field of selected) {
    const keys = KEYS_OF_FIELD[field] ?? [field];
    for (const key of keys) {
      const group = groupOf.get(key);
      if (group === undefined) return WHOLE;
      mask |= 1 << group;
    }
  }
  return mask;
}

/** The variant of each selection seen (itemFieldNames hands a document's selection back the same each request). */
const variantOfSelection = new WeakMap<ReadonlySet<string>, string>();

/**
 * The variant a products connection's selection needs (`selectedAt` from the connection field),
 * from the fields selected on its items; the whole record when there is no selection to go by.
 */
export function productsVariant(selectedAt?: SelectionAt): string {
  if (!selectedAt) return WHOLE.toString(16);
  const items = itemFieldNames(selectedAt);
  let variant = variantOfSelection.get(items);
  if (variant === undefined) {
    variant = variantOfFields(items).toString(16);
    variantOfSelection.set(items, variant);
  }
  return variant;
}

const keysOfVariant = (variant: string): (keyof ProductRecord)[] => {
  const mask = Number.parseInt(variant, 16);
  return PRODUCT_GROUPS.filter((_, group) => mask & (1 << group)).flat();
};

/** A store's products: best-sellers first by rank, then the rest by id; `condition` narrows them. */
const storeProductList = (name: string, variant: string, condition?: string): ChildListSpec => ({
  name: `${name}.${variant}`,
  select: productColumns(keysOfVariant(variant)),
  from: PRODUCTS_WITH_STORE,
  parentColumn: 'p.store_id',
  condition,
  orderBy: 'p.is_best_seller DESC, p.best_seller_rank ASC NULLS LAST, p.id',
});

/** The JSON of a carried row holds its timestamps as text. */
const reviveProduct = (row: Record<string, unknown>): ProductRecord => {
  if (typeof row.updatedAt === 'string') row.updatedAt = new Date(row.updatedAt);
  if (typeof row.publishedAt === 'string') row.publishedAt = new Date(row.publishedAt);
  return row as unknown as ProductRecord;
};

/** One variant's lists: every product, the best-sellers, the rest; the first carried in the store's read. */
interface ProductPages {
  all: (ctx: GraphqlContext) => ChildPageLoader<ProductRecord>;
  bestSellers: (ctx: GraphqlContext) => ChildPageLoader<ProductRecord>;
  others: (ctx: GraphqlContext) => ChildPageLoader<ProductRecord>;
  /** the first products as a store's own statement carries them (the store is its `s`, so no join) */
  carried: ReturnType<typeof carriedRows<ProductRecord>>;
}

function productPages(variant: string): ProductPages {
  const all = storeProductList('store-products', variant);
  const allLoader = defineLoader((ctx) =>
    childPageLoader<ProductRecord>(ctx.services.db.read, all),
  );
  /**
   * Best-sellers or the rest. A store whose whole list its read carried (into `all`) answers from it
   * too: the same order, filtered. Taken when the loader is first asked for, after the stores were
   * read, so a request that never narrows its products pays nothing for it.
   */
  const narrowed = (name: string, condition: string, keep: (p: ProductRecord) => boolean) => {
    const spec = storeProductList(name, variant, condition);
    return defineLoader((ctx) => {
      const loader = childPageLoader<ProductRecord>(ctx.services.db.read, spec);
      for (const [storeId, rows] of allLoader(ctx).carried)
        if (carriedWhole(rows)) loader.carry(storeId, rows.filter(keep));
      return loader;
    });
  };
  return {
    all: allLoader,
    bestSellers: narrowed('store-products-best-sellers', 'p.is_best_seller', (p) => p.isBestSeller),
    others: narrowed('store-products-others', 'NOT p.is_best_seller', (p) => !p.isBestSeller),
    carried: carriedRows<ProductRecord>({ ...all, from: 'products p' }, 's.id', reviveProduct),
  };
}

const pagesOfVariant = new Map<string, ProductPages>();

/** A variant's product lists (productsVariant), made once per variant. */
export function storeProductPages(variant: string): ProductPages {
  let pages = pagesOfVariant.get(variant);
  if (!pages) pagesOfVariant.set(variant, (pages = productPages(variant)));
  return pages;
}
