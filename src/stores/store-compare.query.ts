// Query.compareStores: 2 to 8 stores side by side (GET /v1/stores/compare). Domains missing from
// the catalog are listed in notFound; that is an answer, not an error.
import { z } from 'zod';
import { builder } from '../graphql/builder.ts';
import { domainSchema } from './domain.ts';
import { storeByDomain } from './store.loaders.ts';
import { StoreRef } from './store.ref.ts';
import type { StoreRecord } from './store.sql.ts';
import { rules } from '../access/field-rules.ts';

export const MIN_COMPARE = 2;
export const MAX_COMPARE = 8;

interface Comparison {
  stores: StoreRecord[];
  notFound: string[];
}

const StoreComparison = builder.objectRef<Comparison>('StoreComparison').implement({
  description: 'Stores side by side (GET /v1/stores/compare), and the domains the catalog lacks.',
  fields: (t) => ({
    stores: t.field({
      type: [StoreRef],
      description: 'Found stores, in the order asked.',
      resolve: (c) => c.stores,
    }),
    notFound: t.exposeStringList('notFound', {
      description: 'Canonical domains not in the catalog.',
    }),
  }),
});

builder.queryField('compareStores', (t) =>
  t.field({
    extensions: rules({ quota: 'storeSearches', cache: 'public' }),
    type: StoreComparison,
    description: `${MIN_COMPARE} to ${MAX_COMPARE} stores side by side; a domain not in the catalog is listed in notFound, not an error.`,
    args: {
      domains: t.arg.stringList({
        required: true,
        description: `${MIN_COMPARE} to ${MAX_COMPARE} domains (bare or full URLs); repeats count once.`,
        validate: {
          schema: z
            .array(domainSchema)
            .transform((domains) => [...new Set(domains)])
            .refine((d) => d.length >= MIN_COMPARE && d.length <= MAX_COMPARE, {
              message: `must name ${MIN_COMPARE} to ${MAX_COMPARE} different domains`,
            }),
        },
      }),
    },
    resolve: async (_root, { domains }, ctx) => {
      const found = await storeByDomain(ctx).loadMany(domains);
      const comparison: Comparison = { stores: [], notFound: [] };
      domains.forEach((domain, i) => {
        const store = found[i];
        if (store instanceof Error) throw store;
        if (store) comparison.stores.push(store);
        else comparison.notFound.push(domain);
      });
      return comparison;
    },
  }),
);
