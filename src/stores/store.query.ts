// Query.store(domain): one store profile (GET /v1/stores/{domain}).
import { builder } from '../graphql/builder.ts';
import { notFound } from '../platform/errors.ts';
import { domainSchema } from './domain.ts';
import { legacySummaryByDomain, storeProfileByDomain } from './store.loaders.ts';
import { StoreRef } from './store.ref.ts';
import { rules } from '../access/field-rules.ts';

builder.queryField('store', (t) =>
  t.field({
    extensions: rules({ quota: 'storeLookups', cache: 'public' }),
    type: StoreRef,
    description: 'One store by domain; a full URL with scheme and www. is accepted.',
    args: { domain: t.arg.string({ required: true, validate: { schema: domainSchema } }) },
    resolve: async (_root, { domain }, ctx) => {
      // the legacy summary is read alongside the store, not after it: the profile needs both
      void legacySummaryByDomain(ctx).load(domain).catch(() => undefined);
      const store = await storeProfileByDomain(ctx).load(domain);
      if (!store) throw notFound(`No store ${domain} in the catalog. Search first, or request a scrape.`, { domain });
      return store;
    },
  }),
);
