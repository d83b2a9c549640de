import { z } from 'zod';
import { changeBody } from '../../bodies.ts';
import { toGraphqlEnum } from '../../../src/graphql/enums.ts';
import {
  GetProductDocument,
  ListProductChangesDocument,
  SearchProductsDocument,
} from '../../generated/operations.ts';
import { connectionArgs, listEnvelope, listEnvelopeOf } from '../../pagination.ts';
import {
  booleanParam,
  dateParam,
  domainParam,
  enumParam,
  numberParam,
  paginationParams,
  textParam,
} from '../../params.ts';
import { defineRoute, noPathParams, noQuery, type RestRoute } from '../../route.ts';
import { ChangeList, PRODUCT_CHANGE_TYPES, Product, ProductList } from '../../shapes.ts';
import { SEEDED } from '../../../src/seed/seeded-catalog.ts';

export const PRODUCT_FILTERS = ['q', 'isBestSeller', 'priceMin', 'priceMax'] as const;

export const searchProducts = defineRoute({
  operationId: 'searchProducts',
  exportable: true,
  method: 'GET',
  path: '/v1/products',
  tag: 'Products',
  summary: 'Search products across stores',
  description:
    `At least one of ${PRODUCT_FILTERS.join(', ')} is required. Without any, the answer is bad_request (400) with ` +
    `\`details: {parameter: "${PRODUCT_FILTERS.join('|')}", rule: "at least one filter is required"}\`. ` +
    'Order: with q, best title matches first (titles matching more of the words, and better: the word itself, a word it ' +
    'begins, a typo of it, a longer word containing it); with a price range, cheapest first; otherwise by best-seller rank. ' +
    'Prices are in the product currency (USD when the store states none).',
  document: SearchProductsDocument,
  pathParams: noPathParams,
  query: z
    .strictObject({
      q: textParam().optional().meta({
        description:
          'Title search by words, typo-tolerant; the last word may be a prefix being typed.',
      }),
      isBestSeller: booleanParam()
        .optional()
        .meta({ description: 'Only best sellers (true) or only the others (false).' }),
      priceMin: numberParam({ min: 0 }).optional().meta({ description: 'Minimum price.' }),
      priceMax: numberParam({ min: 0 }).optional().meta({ description: 'Maximum price.' }),
      ...paginationParams(),
    })
    .superRefine((params, ctx) => {
      if (
        params.priceMin !== undefined &&
        params.priceMax !== undefined &&
        params.priceMin > params.priceMax
      ) {
        ctx.addIssue({ code: 'custom', path: ['priceMin'], message: 'must not exceed priceMax' });
      }
    }),
  canBeNotFound: false,
  variables: (p) => ({
    filter: { q: p.q, isBestSeller: p.isBestSeller, priceMin: p.priceMin, priceMax: p.priceMax },
    ...connectionArgs(p),
  }),
  response: ProductList,
  respond: (data, p) => listEnvelope(data.products, p),
  example: '/v1/products?q=hoodie&priceMax=80',
});

export const getProduct = defineRoute({
  operationId: 'getProduct',
  method: 'GET',
  path: '/v1/products/{domain}/{handle}',
  tag: 'Products',
  summary: 'One product',
  description:
    'A product is identified by its store domain and its handle; not_found (404) when either is unknown.',
  document: GetProductDocument,
  pathParams: z.strictObject({
    domain: domainParam(),
    handle: textParam(500).meta({
      description: "The product's handle within the store.",
      example: 'classic-hoodie',
    }),
  }),
  query: noQuery,
  canBeNotFound: true,
  variables: (p) => ({ domain: p.domain, handle: p.handle }),
  response: Product,
  respond: (data) => data.product,
  example: `/v1/products/${SEEDED.domain}/${SEEDED.productHandle}`,
});

export const listProductChanges = defineRoute({
  operationId: 'listProductChanges',
  method: 'GET',
  path: '/v1/products/changes',
  tag: 'Products',
  summary: 'Price and assortment changes of products',
  description:
    `changeType is one of ${PRODUCT_CHANGE_TYPES.join(', ')}. Entries are differences between two scrapes, ` +
    'newest first; they are not a complete event stream.',
  document: ListProductChangesDocument,
  pathParams: noPathParams,
  query: z.strictObject({
    changeType: enumParam(PRODUCT_CHANGE_TYPES).optional(),
    minPriceChangePct: numberParam({ min: 0 }).optional().meta({
      description:
        'Minimum size of a price change in percent, either direction (10 = at least 10%).',
    }),
    since: dateParam()
      .optional()
      .meta({ description: 'Only changes detected on or after this day (UTC).' }),
    domain: textParam(2048)
      .optional()
      .meta({ description: "Only this store's changes (bare domain or full URL)." }),
    ...paginationParams(),
  }),
  canBeNotFound: false,
  variables: (p) => ({
    filter: {
      changeType: p.changeType && toGraphqlEnum(p.changeType),
      minPriceChangePct: p.minPriceChangePct,
      since: p.since,
      domain: p.domain,
    },
    ...connectionArgs(p),
  }),
  response: ChangeList,
  respond: (data, p) => listEnvelopeOf(data.productChanges, p, changeBody),
  example: '/v1/products/changes?changeType=price_decrease&minPriceChangePct=20',
});

/** The product routes, in the order docs.md and the OpenAPI description list them. */
export const productRoutes: readonly RestRoute[] = [searchProducts, listProductChanges, getProduct];
