// Store fields that come from the legacy store (screenshot, socials, emails, legacy id) and the
// `sources` list naming every backend that actually contributed to the object.
import { builder } from '../graphql/builder.ts';
import type { GraphqlContext } from '../graphql/context.ts';
import type { LegacySocials } from '../platform/legacy/port.ts';
import { hasLegacySummaryOf, latestTrafficOf, legacySummaryByDomain } from './store.loaders.ts';
import { StoreRef } from './store.ref.ts';
import type { StoreRecord } from './store.sql.ts';

export const STRUCTURED_STORE_SOURCE = 'postgres:stores';
export const TRAFFIC_SOURCE = 'postgres:traffic_monthly';

const Socials = builder.objectRef<LegacySocials>('Socials').implement({
  description:
    'Social profiles linked from the storefront (legacy store); each is null when the storefront links none.',
  fields: (t) => ({
    instagram: t.string({
      nullable: true,
      description: 'Instagram profile URL; null when none was seen.',
      resolve: (s) => s.instagram ?? null,
    }),
    facebook: t.string({
      nullable: true,
      description: 'Facebook profile URL; null when none was seen.',
      resolve: (s) => s.facebook ?? null,
    }),
    tiktok: t.string({
      nullable: true,
      description: 'TikTok profile URL; null when none was seen.',
      resolve: (s) => s.tiktok ?? null,
    }),
    twitter: t.string({
      nullable: true,
      description: 'X (Twitter) profile URL; null when none was seen.',
      resolve: (s) => s.twitter ?? null,
    }),
    youtube: t.string({
      nullable: true,
      description: 'YouTube profile URL; null when none was seen.',
      resolve: (s) => s.youtube ?? null,
    }),
    pinterest: t.string({
      nullable: true,
      description: 'Pinterest profile URL; null when none was seen.',
      resolve: (s) => s.pinterest ?? null,
    }),
  }),
});

/** Store fields that read the legacy store's summary (the models read its emails and socials). */
export const LEGACY_FIELDS = ['screenshotUrl', 'socials', 'emails', 'sources', 'models'] as const;

const summaryOf = (store: StoreRecord, ctx: GraphqlContext) =>
  legacySummaryByDomain(ctx).load(store.domain);

/** The backends a store's answer came from: the catalog always, the legacy store and the traffic when they hold it. */
const sourcesOf = (ctx: GraphqlContext, hasLegacy: boolean, hasTraffic: boolean): string[] => [
  STRUCTURED_STORE_SOURCE,
  ...(hasLegacy ? [ctx.services.legacy.source] : []),
  ...(hasTraffic ? [TRAFFIC_SOURCE] : []),
];

builder.objectFields(StoreRef, (t) => ({
  legacyId: t.string({
    nullable: true,
    description: 'Id of the store in the legacy store database (24 hex characters).',
    resolve: async (store, _args, ctx) =>
      store.legacyId ?? (await summaryOf(store, ctx))?.legacyId ?? null,
  }),
  screenshotUrl: t.string({
    nullable: true,
    description:
      "URL of a screenshot of the storefront's home page (legacy store); null when none was taken.",
    resolve: async (store, _args, ctx) => (await summaryOf(store, ctx))?.screenshotUrl ?? null,
  }),
  socials: t.field({
    type: Socials,
    description:
      'Social profiles linked from the storefront; every network null when none is known.',
    resolve: async (store, _args, ctx) => (await summaryOf(store, ctx))?.socials ?? {},
  }),
  emails: t.stringList({
    description:
      'Contact email addresses published on the storefront (legacy store); empty when none was seen.',
    resolve: async (store, _args, ctx) => (await summaryOf(store, ctx))?.emails ?? [],
  }),
  sources: t.stringList({
    description:
      'Backends that contributed to this object, each `<backend>:<table_or_collection>`.',
    // answered at once when the store's read carried both (a card or a page), else through the loaders
    resolve: (store, _args, ctx) => {
      const legacy = hasLegacySummaryOf(ctx, store);
      const traffic = latestTrafficOf(ctx, store);
      if (!(legacy instanceof Promise) && !(traffic instanceof Promise))
        return sourcesOf(ctx, legacy, traffic !== null);
      return Promise.all([legacy, traffic]).then(([hasLegacy, latest]) =>
        sourcesOf(ctx, hasLegacy, latest !== null),
      );
    },
  }),
}));
