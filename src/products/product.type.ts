// Product: one product of one store, named by (domain, handle).
import { builder } from '../graphql/builder.ts';
import { pageArgs } from '../graphql/page-args.ts';
import { childConnection } from '../graphql/child-pages.ts';
import { extendStoreRead, storeById } from '../stores/store.loaders.ts';
import { StoreRef } from '../stores/store.ref.ts';
import { notFound } from '../platform/errors.ts';
import { productById, productsVariant, storeProductPages } from './product.loaders.ts';
import { selectedFieldNames } from '../graphql/selection.ts';
import type { ProductRecord } from './product.sql.ts';
import { rules } from '../access/field-rules.ts';

export const ProductRef = builder.objectRef<ProductRecord>('Product');

export const ProductConnection = builder.connectionObject(
  {
    type: ProductRef,
    name: 'ProductConnection',
    description:
      "A page of products (a product search, a store's catalog), with the total across pages.",
  },
  { name: 'ProductEdge', description: 'One product in a page of products, with its cursor.' },
);

builder.node(ProductRef, {
  // a node(id) lookup of this type counts as a lookup in this bucket
  extensions: rules({ quota: 'productAppLookups' }),
  description:
    'A product of a store. Prices are in the product currency (USD when currency is absent).',
  id: { resolve: (p) => p.id, parse: (id) => Number(id) },
  loadMany: (ids, ctx) =>
    Promise.all(ids.map((id) => (Number.isSafeInteger(id) ? productById(ctx).load(id) : null))),
  fields: (t) => ({
    domain: t.exposeString('domain', { description: "The store's canonical domain." }),
    handle: t.exposeString('handle', {
      description: "The product's URL handle on its store; (domain, handle) names the product.",
    }),
    url: t.string({
      description: "The product's page on the storefront: https://{domain}/products/{handle}.",
      resolve: (p) => `https://${p.domain}/products/${encodeURIComponent(p.handle)}`,
    }),
    title: t.exposeString('title', {
      description: 'The product title as the storefront shows it.',
    }),
    vendor: t.exposeString('vendor', {
      nullable: true,
      description: 'Brand or maker the storefront names; null when it names none.',
    }),
    productType: t.exposeString('productType', {
      nullable: true,
      description: "The merchant's own product type (free text, e.g. Hoodies); null when not set.",
    }),
    price: t.exposeFloat('price', {
      description: "Price of the cheapest variant, in the product's currency.",
    }),
    compareAtPrice: t.exposeFloat('compareAtPrice', {
      nullable: true,
      description:
        'The cheapest variant\'s struck-through "was" price, in the product\'s currency; null when not on sale.',
    }),
    currency: t.string({
      description: 'ISO 4217; USD when the store did not state one.',
      resolve: (p) => p.currency ?? 'USD',
    }),
    isBestSeller: t.exposeBoolean('isBestSeller', {
      description: "True when the product is in the store's best-sellers (see bestSellerRank).",
    }),
    bestSellerRank: t.exposeInt('bestSellerRank', {
      nullable: true,
      description: "Position in the store's best-sellers, 1 = best.",
    }),
    available: t.exposeBoolean('available', {
      description: 'True when at least one variant could be bought at the last scrape.',
    }),
    variantCount: t.exposeInt('variantCount', {
      description: 'Number of variants (sizes, colours, ...) the product has.',
    }),
    imageUrl: t.exposeString('imageUrl', {
      nullable: true,
      description: "URL of the product's first image; null when it has none.",
    }),
    publishedAt: t.expose('publishedAt', {
      type: 'DateTime',
      nullable: true,
      description:
        'When the merchant published the product; null when the storefront does not say.',
    }),
    updatedAt: t.expose('updatedAt', {
      type: 'DateTime',
      description: 'When this record was last written from a scrape of the storefront.',
    }),
    store: t.field({
      type: StoreRef,
      description: 'The store that sells the product.',
      resolve: async (p, _args, ctx) => {
        const store = await storeById(ctx).load(p.storeId);
        if (!store)
          throw notFound(`The store of product ${p.handle} is gone.`, { domain: p.domain });
        return store;
      },
    }),
  }),
});

// a store asking for its products gets their first page in its own statement, not a second one,
// with the product columns its selection reads
extendStoreRead({
  field: 'products',
  variantOf: productsVariant,
  expression: (variant) => storeProductPages(variant).carried.expression,
  prime: (ctx, storeId, value, variant = productsVariant()) => {
    const pages = storeProductPages(variant);
    pages.all(ctx).carry(storeId, pages.carried.rowsOf(value));
  },
});

builder.objectField(StoreRef, 'products', (t) =>
  t.field({
    type: ProductConnection,
    description: "The store's products: best-sellers first (by rank), then the rest.",
    args: {
      ...pageArgs,
      isBestSeller: t.arg.boolean({
        description: 'Only best-sellers (true) or only the others (false).',
      }),
    },
    resolve: (store, args, ctx, info) => {
      const lists = storeProductPages(productsVariant((path) => selectedFieldNames(info, path)));
      const pages =
        args.isBestSeller == null
          ? lists.all
          : args.isBestSeller
            ? lists.bestSellers
            : lists.others;
      return childConnection(args, info, store.id, (key) => pages(ctx).load(key));
    },
  }),
);
