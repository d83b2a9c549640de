// Query.lookupStores: up to 100 domains at once (POST /v1/stores/lookup). Like compareStores, a
// domain missing from the catalog is an answer (notFound), not an error; unlike it, a store that
// moved answers under its old domain too, and each store found is charged as one store lookup.
import { z } from 'zod';
import { chargeFound } from '../access/admission.ts';
import { rules } from '../access/field-rules.ts';
import { builder } from '../graphql/builder.ts';
import { domainSchema } from './domain.ts';
import { movedDomains } from './store-moves.sql.ts';
import { storeByDomain } from './store.loaders.ts';
import { StoreRef } from './store.ref.ts';
import type { StoreRecord } from './store.sql.ts';

export const MAX_LOOKUP = 100;

/** One domain asked (canonical, first time asked) and the store it reached, if any. */
interface LookupMatch {
  requested: string;
  store: StoreRecord | null;
}

interface Lookup {
  matches: LookupMatch[];
}

const StoreLookupMatch = builder.objectRef<LookupMatch>('StoreLookupMatch').implement({
  description: 'A domain asked for and the store it reached.',
  fields: (t) => ({
    requested: t.exposeString('requested', {
      description: 'The domain as asked, canonical (lower case, no scheme, no www.).',
    }),
    store: t.field({
      type: StoreRef,
      nullable: true,
      description:
        'The store, null when not in the catalog; its `domain` differs from `requested` when the store moved to a new host.',
      resolve: (m) => m.store,
    }),
  }),
});

const StoreLookup = builder.objectRef<Lookup>('StoreLookup').implement({
  description:
    'Stores looked up by domain: what each domain reached, the stores found and the domains not found.',
  fields: (t) => ({
    matches: t.field({
      type: [StoreLookupMatch],
      description: 'One entry per different domain asked, in the order asked.',
      resolve: (l) => l.matches,
    }),
    stores: t.field({
      type: [StoreRef],
      description:
        'Found stores, in the order asked, each once (an old and a new domain of one store answer it once).',
      resolve: (l) => storesOf(l.matches),
    }),
    notFound: t.stringList({
      description: 'Canonical domains not in the catalog, in the order asked.',
      resolve: (l) => l.matches.filter((m) => !m.store).map((m) => m.requested),
    }),
  }),
});

/** Each store found, once, at the first position that reached it. */
export function storesOf(matches: readonly LookupMatch[]): StoreRecord[] {
  const seen = new Set<number>();
  const stores: StoreRecord[] = [];
  for (const { store } of matches) {
    if (!store || seen.has(store.id)) continue;
    seen.add(store.id);
    stores.push(store);
  }
  return stores;
}

builder.queryField('lookupStores', (t) =>
  t.field({
    // the bucket is charged per store found, by the resolver once it knows them (field-rules.ts)
    extensions: rules({ quota: 'storeLookups', unitsFound: true }),
    type: StoreLookup,
    description: `Up to ${MAX_LOOKUP} stores by domain: one match per different domain asked, in order; each store found costs one store lookup.`,
    args: {
      domains: t.arg.stringList({
        required: true,
        description: `1 to ${MAX_LOOKUP} domains (bare or full URLs); repeats count once, at their first position.`,
        validate: {
          schema: z
            .array(domainSchema)
            .min(1, { error: `must list 1 to ${MAX_LOOKUP} domains` })
            .max(MAX_LOOKUP, { error: `must list 1 to ${MAX_LOOKUP} domains` })
            .transform((domains) => [...new Set(domains)]),
        },
      }),
    },
    resolve: async (_root, { domains }, ctx) => {
      const loader = storeByDomain(ctx);
      const found = await loader.loadMany(domains);
      const matches: LookupMatch[] = domains.map((requested, i) => {
        const store = found[i];
        if (store instanceof Error) throw store;
        return { requested, store: store ?? null };
      });
      // a store that moved answers under each of its old domains
      const missing = matches.filter((m) => !m.store).map((m) => m.requested);
      if (missing.length > 0) {
        const moved = await movedDomains(ctx.services.db.read, missing);
        const movedTo = [...new Set(moved.values())];
        const stores = await loader.loadMany(movedTo);
        const byDomain = new Map<string, StoreRecord>();
        stores.forEach((store, i) => {
          if (store instanceof Error) throw store;
          if (store) byDomain.set(movedTo[i]!, store);
        });
        for (const match of matches) {
          const to = match.store ? undefined : moved.get(match.requested);
          if (to) match.store = byDomain.get(to) ?? null;
        }
      }
      await chargeFound(ctx, 'storeLookups', storesOf(matches).length);
      return { matches };
    },
  }),
);
