// Query.store(domain): one store, a card or a whole profile (GET /v1/stores/{domain}), read as its selection needs.
import { builder } from '../graphql/builder.ts';
import { notFound } from '../platform/errors.ts';
import { domainSchema } from './domain.ts';
import { movedDomain } from './store-moves.sql.ts';
import { selectedFieldNames } from '../graphql/selection.ts';
import { LEGACY_FIELDS } from './store-legacy.fields.ts';
import { legacySummaryByDomain, storeReadByDomain, storeReadNeeds } from './store.loaders.ts';
import { StoreRef } from './store.ref.ts';
import { rules } from '../access/field-rules.ts';

builder.queryField('store', (t) =>
  t.field({
    extensions: rules({ quota: 'storeLookups', cache: 'public' }),
    type: StoreRef,
    nullable: true,
    description:
      'One store by domain; a full URL with scheme and www. is accepted. A store that moved to a new host answers under its old domain too, with its new `domain`.',
    args: {
      domain: t.arg.string({
        required: true,
        description: "The store's domain (e.g. example.com) or its URL (https://www.example.com/).",
        validate: { schema: domainSchema },
      }),
    },
    resolve: async (_root, { domain }, ctx, info) => {
      // read what the selection needs, no more: a card of a few columns skips the app stack, the
      // traffic month and the legacy store; a full profile gets them in the same round trips
      const selected = selectedFieldNames(info);
      const needs = storeReadNeeds(selected, (path) => selectedFieldNames(info, path));
      // a legacy store of its own (MongoDB) is read alongside the store, not after it, when the
      // selection needs it; one in this database is joined into the store's statement
      if (
        !ctx.services.legacy.colocatedTable &&
        LEGACY_FIELDS.some((field) => selected.has(field))
      ) {
        void legacySummaryByDomain(ctx)
          .load(domain)
          .catch(() => undefined);
      }
      // a store that moved answers under its new domain
      const store =
        (await storeReadByDomain(ctx, needs).load(domain)) ??
        (await movedDomain(ctx.services.db.read, domain).then((to) =>
          to ? storeReadByDomain(ctx, needs).load(to) : null,
        ));
      if (!store)
        throw notFound(`No store ${domain} in the catalog. Search first, or request a scrape.`, {
          domain,
        });
      return store;
    },
  }),
);
