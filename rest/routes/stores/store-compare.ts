// GET /v1/stores/compare: 2 to 8 store cards side by side.
import { z } from 'zod';
import { CompareStoresDocument } from '../../generated/operations.ts';
import { defineRoute, noPathParams, type RestRoute } from '../../route.ts';
import { StoreCard } from '../../shapes.ts';
import { SEEDED } from '../../../src/seed/seeded-catalog.ts';

export const StoreComparison = z
  .strictObject({
    data: z
      .array(StoreCard)
      .meta({ description: 'Cards of the stores found, in the order asked.' }),
    notFound: z
      .array(z.string())
      .meta({ description: 'Domains asked for that are not in the catalog.' }),
  })
  .meta({ id: 'StoreComparison' });

const MIN_COMPARE = 2;
const MAX_COMPARE = 8;
const compareRule = `must list ${MIN_COMPARE} to ${MAX_COMPARE} comma-separated domains`;

export const compareStores = defineRoute({
  operationId: 'compareStores',
  method: 'GET',
  path: '/v1/stores/compare',
  tag: 'Stores',
  summary: 'Compare 2 to 8 stores side by side',
  description:
    'Returns `{data: [store cards in the order asked], notFound: [domains not in the catalog]}`. Missing domains ' +
    'never make this route fail with 404.',
  document: CompareStoresDocument,
  pathParams: noPathParams,
  query: z.strictObject({
    domains: z
      .string({ error: compareRule })
      .transform((value) =>
        value
          .split(',')
          .map((domain) => domain.trim())
          .filter((domain) => domain.length > 0),
      )
      .pipe(
        z
          .array(z.string())
          .min(MIN_COMPARE, { error: compareRule })
          .max(MAX_COMPARE, { error: compareRule }),
      )
      .meta({
        description: `${MIN_COMPARE} to ${MAX_COMPARE} domains (bare or full URLs), comma-separated.`,
        example: `${SEEDED.domain},${SEEDED.otherDomain}`,
      }),
  }),
  canBeNotFound: false,
  variables: (p) => ({ domains: p.domains }),
  response: StoreComparison,
  respond: (data) => ({ data: data.compareStores.stores, notFound: data.compareStores.notFound }),
  example: `/v1/stores/compare?domains=${SEEDED.domain},${SEEDED.otherDomain}`,
});

/** The compare route, in the order docs.md and the OpenAPI description list it. */
export const storeCompareRoutes: readonly RestRoute[] = [compareStores];
