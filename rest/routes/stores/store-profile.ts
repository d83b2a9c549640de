// GET /v1/stores/{domain}: one store's unified profile (the card, profile fields and the models
// behind its modeled figures). Its lists (products, history, traffic, apps) are in
// store-profile-lists.ts.
import { z } from 'zod';
import { GetStoreDocument, type GetStoreQuery } from '../../generated/operations.ts';
import { domainParam } from '../../params.ts';
import { defineRoute, noQuery, type RestRoute } from '../../route.ts';
import { App, DateTime, PercentBand, cardFields, orNull } from '../../shapes.ts';
import { SEEDED } from '../../../src/seed/seeded-catalog.ts';
import { fromGraphqlEnum } from '../../../src/graphql/enums.ts';

const Socials = z
  .strictObject({
    instagram: z.string().nullable(),
    facebook: z.string().nullable(),
    tiktok: z.string().nullable(),
    twitter: z.string().nullable(),
    youtube: z.string().nullable(),
    pinterest: z.string().nullable(),
  })
  .meta({
    id: 'Socials',
    description: 'Social profile URLs from the legacy store; null when not observed.',
  });

const StoreMetrics = z
  .strictObject({
    productCount: z.number().int().meta({ description: 'Products in the catalog (catalog size).' }),
    bestSellerCount: z.number().int(),
    appCount: z.number().int(),
    medianPriceUsd: z.number().nullable(),
    socialFollowers: z.number().int().nullable(),
    adSpendUsd: z.number().nullable().meta({ description: 'Modeled monthly ad spend, USD.' }),
    visitsChangePct: z
      .number()
      .nullable()
      .meta({ description: 'Change of modeled visits over 30 days, percent.' }),
    revenueChangePct: z
      .number()
      .nullable()
      .meta({ description: 'Change of the revenue band high end over 30 days, percent.' }),
  })
  .meta({ id: 'StoreMetrics' });

const ModelExplanation = z
  .strictObject({
    model: z.string().meta({ description: 'Name and version of the model.' }),
    method: z
      .string()
      .meta({ description: 'How the figure is computed, in one or two sentences.' }),
    fields: z.array(z.string()).meta({ description: 'Profile fields this model produces.' }),
    inputs: z
      .array(
        z.strictObject({
          name: z.string(),
          value: z
            .union([z.number(), z.boolean(), z.string(), z.null()])
            .meta({ description: 'null when not observed.' }),
        }),
      )
      .meta({ description: "This store's inputs to the model." }),
  })
  .meta({
    id: 'ModelExplanation',
    description: 'How a modeled figure of this store is computed: method and inputs.',
  });

export const StoreModels = z
  .strictObject({
    revenue: ModelExplanation,
    visits: ModelExplanation,
    rating: ModelExplanation,
    dropshipper: ModelExplanation,
    adSpend: ModelExplanation,
  })
  .meta({
    id: 'StoreModels',
    description: 'The models behind the modeled figures, with the inputs of this store.',
  });

export const StoreObservation = z
  .strictObject({
    presence: z.enum(['active', 'failing', 'vanished']).meta({
      description:
        'active: the last observation read the storefront. failing: the last observations failed; still listed. vanished: ' +
        'the storefront is gone (several observations in a row): the store is left out of search results and grouped ' +
        'rows, stays readable here, and is looked at again weekly.',
    }),
    presenceSince: DateTime,
    lastObservedAt: DateTime.nullable().meta({
      description: 'The last observation that read the storefront.',
    }),
    nextObservationAt: DateTime.meta({
      description: 'When the scheduler next observes the store.',
    }),
    intervalHours: z.number().meta({
      description: 'Hours between observations, by popularity and how often the store changes.',
    }),
    failureKind: z.string().nullable().meta({
      description: 'Why the last observation failed, e.g. not_found, unresolvable, moved.',
    }),
    movedTo: z
      .string()
      .nullable()
      .meta({ description: 'The host the storefront now redirects to, when it moved.' }),
  })
  .meta({
    id: 'StoreObservation',
    description: "The crawler's view of a store (see the Crawler section).",
  });

export const StoreProfile = z
  .strictObject({
    ...cardFields,
    name: z.string(),
    industry: z.string().nullable(),
    category: z.string().nullable(),
    currency: z
      .string()
      .meta({ description: "The storefront's own currency; money fields stay USD." }),
    legacyId: z
      .string()
      .nullable()
      .meta({ description: 'Id in the legacy store database, when known.' }),
    theme: z.string().nullable(),
    firstSeenAt: DateTime,
    lastScrapedAt: DateTime.nullable(),
    metrics: StoreMetrics,
    conversionRatePct: orNull(PercentBand).meta({
      description: 'Modeled conversion rate band, percent.',
    }),
    averageOrderValueUsd: z
      .number()
      .nullable()
      .meta({ description: 'Modeled average order value, USD.' }),
    dropshipperScore: z
      .number()
      .meta({ description: 'Classifier score behind isDropshipper, 0 to 1.' }),
    screenshotUrl: z.string().nullable(),
    socials: Socials,
    emails: z.array(z.string()),
    apps: z.array(App).meta({ description: 'Installed apps (the whole observed stack).' }),
    models: StoreModels,
    observation: orNull(StoreObservation).meta({
      description:
        'How the crawler sees the store; null for a store it never visits (the synthetic demo catalog).',
    }),
  })
  .meta({
    id: 'StoreProfile',
    description: 'The unified store profile: the card plus the profile fields.',
  });

/** {domain}: the store's domain, for this route and the store's lists. */
export const domainPath = z.strictObject({ domain: domainParam() });

export const getStore = defineRoute({
  operationId: 'getStore',
  method: 'GET',
  path: '/v1/stores/{domain}',
  tag: 'Stores',
  summary: 'One unified store profile',
  description:
    'The store card plus the profile fields: metrics (catalog size, app count, ad spend, 30-day changes), ' +
    'the modeled conversion band and average order value, screenshot, socials, emails, the installed apps, and ' +
    "`models`: the method and this store's inputs behind each modeled figure. " +
    'A store that moved to a new host is answered at its old domain too, under its new `domain`. ' +
    'A store missing from the catalog is not_found (404); queue a scrape for it.',
  document: GetStoreDocument,
  pathParams: domainPath,
  query: noQuery,
  canBeNotFound: true,
  variables: (p) => ({ domain: p.domain }),
  response: StoreProfile,
  respond: ({ store }) => ({
    ...store,
    observation: store.observation && {
      ...store.observation,
      presence: fromGraphqlEnum(store.observation.presence),
    },
    models: explainModels(store.models),
  }),
  example: `/v1/stores/${SEEDED.domain}`,
});

type ModelExplanation = NonNullable<GetStoreQuery['store']>['models']['revenue'];

/** GraphQL's one-typed-slot-per-kind inputs become one `value` in JSON. */
function explainModel({ inputs, ...explanation }: ModelExplanation) {
  return {
    ...explanation,
    inputs: inputs.map((input) => ({
      name: input.name,
      value: input.number ?? input.boolean ?? input.text ?? null,
    })),
  };
}

function explainModels(models: NonNullable<GetStoreQuery['store']>['models']) {
  return {
    revenue: explainModel(models.revenue),
    visits: explainModel(models.visits),
    rating: explainModel(models.rating),
    dropshipper: explainModel(models.dropshipper),
    adSpend: explainModel(models.adSpend),
  };
}

/** The profile route, in the order docs.md and the OpenAPI description list it. */
export const storeProfileRoutes: readonly RestRoute[] = [getStore];
