// Query.products: product search across stores (GET /v1/products). At least one filter is required.
import type { NumberValidationOptions } from '@pothos/plugin-zod';
import { builder } from '../graphql/builder.ts';
import { pageArgs } from '../graphql/page-args.ts';
import { offsetConnection, pagedConnection } from '../graphql/pagination.ts';
import { domainSchema } from '../stores/domain.ts';
import {
  countProducts,
  resolveProductFilter,
  searchProducts,
  titleSearchPage,
} from './product-search.sql.ts';
import { ProductConnection } from './product.type.ts';
import { rules } from '../access/field-rules.ts';
import {
  assertRelevanceDirection,
  OrderDirectionEnum,
  type OrderDirection,
} from '../graphql/order.ts';
import type { ProductOrderField } from './product-search.sql.ts';

const price: NumberValidationOptions = {
  type: 'number',
  min: [0, { message: 'must not be negative' }],
};

const ProductFilter = builder.inputType('ProductFilter', {
  description:
    'At least one of q, isBestSeller, priceMin, priceMax is required; domain narrows to one store.',
  fields: (t) => ({
    q: t.string({
      description:
        'Title search by words: each word matches itself, the last word also as a prefix being typed, words within one ' +
        'typing mistake (3 to 5 letters) or two (6 on, a swap of neighbouring letters counting as one), and longer words ' +
        'containing it. Titles matching more words, and better, come first.',
      validate: {
        type: 'string',
        minLength: [2, { message: 'must be at least 2 characters' }],
        maxLength: 200,
      },
    }),
    isBestSeller: t.boolean({
      description: "Only products in their store's best-sellers (true) or only the others (false).",
    }),
    priceMin: t.float({ description: 'In the product currency.', validate: price }),
    priceMax: t.float({ description: 'In the product currency.', validate: price }),
    domain: t.string({
      description: "Only this store's products (a domain or URL); not a filter on its own.",
      validate: { schema: domainSchema },
    }),
  }),
  validate: {
    refine: [
      [
        (f) => f.q != null || f.isBestSeller != null || f.priceMin != null || f.priceMax != null,
        { message: 'at least one filter is required', path: ['q|isBestSeller|priceMin|priceMax'] },
      ],
      [
        (f) => f.priceMin == null || f.priceMax == null || f.priceMin <= f.priceMax,
        { message: 'must not be below priceMin', path: ['priceMax'] },
      ],
    ],
  },
});

const ProductOrderFieldEnum = builder.enumType('ProductOrderField', {
  description: 'What orderBy orders products by.',
  values: {
    RELEVANCE: {
      value: 'relevance',
      description:
        'How well the title matches filter.q (see ProductFilter.q); DESC only. Without q: the default order.',
    },
    PRICE: {
      value: 'price',
      description:
        'The price in the product currency (currencies are not converted), then the product id.',
    },
  } as const,
});

const ProductOrder = builder.inputType('ProductOrder', {
  description: 'The order of a product list: a field and a direction.',
  fields: (t) => ({
    field: t.field({
      type: ProductOrderFieldEnum,
      required: true,
      description: 'What to order by.',
    }),
    direction: t.field({
      type: OrderDirectionEnum,
      defaultValue: 'desc',
      description: 'DESC (default): largest first.',
    }),
  }),
});

/** orderBy's field and direction, or undefined for the default order (RELEVANCE is the default made explicit). */
function productOrder(
  orderBy:
    | { field: 'relevance' | ProductOrderField; direction?: OrderDirection | null }
    | null
    | undefined,
): { field: ProductOrderField; direction: OrderDirection } | undefined {
  if (!orderBy) return undefined;
  const direction = orderBy.direction ?? 'desc';
  if (orderBy.field === 'relevance') {
    assertRelevanceDirection(direction);
    return undefined;
  }
  return { field: orderBy.field, direction };
}

builder.queryField('products', (t) =>
  t.field({
    extensions: rules({ quota: 'productSearches', cache: 'public' }),
    type: ProductConnection,
    description:
      'Products across stores. Default order (orderBy overrides it): with q, best title matches first (see ProductFilter.q); with a price range, cheapest first; otherwise by best-seller rank.',
    args: {
      ...pageArgs,
      filter: t.arg({
        type: ProductFilter,
        required: true,
        description: 'What to search for; at least one of q, isBestSeller, priceMin, priceMax.',
      }),
      orderBy: t.arg({
        type: ProductOrder,
        description:
          'The order (default: RELEVANCE with filter.q, else cheapest first with a price range, else best-seller rank).',
      }),
    },
    resolve: async (_root, { filter, orderBy, ...args }, ctx) => {
      const order = productOrder(orderBy);
      const pool = ctx.services.db.read;
      const resolved = await resolveProductFilter(pool, filter);
      if (resolved.textMatch && !order) {
        const match = { ...resolved, textMatch: resolved.textMatch };
        return pagedConnection(args, (window) => titleSearchPage(pool, match, window));
      }
      return offsetConnection(
        args,
        (window) => searchProducts(pool, resolved, window, order),
        () => countProducts(pool, resolved),
      );
    },
  }),
);
