// Store.models: for each modeled figure, the method text (from the model functions in
// src/stores/model) and the inputs this store fed into it, so every model is explainable.
// Inputs are typed with the models' own input interfaces, so a model change that adds or renames
// an input fails to compile here instead of silently showing stale inputs.
import { appsByStoreId } from '../apps/app.loaders.ts';
import { builder } from '../graphql/builder.ts';
import type { GraphqlContext } from '../graphql/context.ts';
import { SOCIAL_NETWORKS } from '../platform/legacy/summary.ts';
import type { AdSpendInputs } from './model/ad-spend.ts';
import type { DropshipperInputs } from './model/dropshipper.ts';
import { MODEL_METHODS } from './model/methods.ts';
import type { RatingInputs } from './model/rating.ts';
import type { RevenueInputs } from './model/revenue.ts';
import type { VisitsInputs } from './model/visits.ts';
import { latestTrafficByStoreId, legacySummaryByDomain } from './store.loaders.ts';
import { StoreRef } from './store.ref.ts';
import type { StoreRecord } from './store.sql.ts';

/** App categories the models read (the same rules the seed and scraper apply to data/apps.json). */
const REVIEWS_CATEGORIES = new Set(['Reviews']);
const SUPPORT_CATEGORIES = new Set(['Customer support', 'Live chat']);
/** data/apps.json marks exactly these categories `dropshipping` (supplier sync, print on demand) */
const DROPSHIPPING_CATEGORIES = new Set(['Dropshipping', 'Print on demand']);

type InputValue = number | boolean | string | null | undefined;

interface ModelInput {
  name: string;
  value: InputValue;
}

interface ModelExplanation {
  model: string;
  inputs: ModelInput[];
}

const ModelInputRef = builder.objectRef<ModelInput>('ModelInput').implement({
  description:
    'One input of a model as this store supplied it; exactly one of number, boolean, text is set (none when unknown).',
  fields: (t) => ({
    name: t.exposeString('name', {
      description: 'Name of the input as the model reads it, e.g. monthlyVisits or hasReviewsApp.',
    }),
    number: t.float({
      nullable: true,
      description: 'The value when the input is a number; null otherwise or when unknown.',
      resolve: (i) => (typeof i.value === 'number' ? i.value : null),
    }),
    boolean: t.boolean({
      nullable: true,
      description: 'The value when the input is a yes/no fact; null otherwise or when unknown.',
      resolve: (i) => (typeof i.value === 'boolean' ? i.value : null),
    }),
    text: t.string({
      nullable: true,
      description:
        'The value when the input is text (e.g. a vertical); null otherwise or when unknown.',
      resolve: (i) => (typeof i.value === 'string' ? i.value : null),
    }),
  }),
});

const methodOf = (model: string) => MODEL_METHODS.find((m) => m.model === model);

const ModelExplanationRef = builder.objectRef<ModelExplanation>('ModelExplanation').implement({
  description: 'How a modeled figure is computed: the method and the inputs of this store.',
  fields: (t) => ({
    model: t.exposeString('model', {
      description: 'Name of the model: visits, revenue, adSpend, rating or dropshipper.',
    }),
    fields: t.stringList({
      description: 'Fields of Store this model produces.',
      resolve: (e) => methodOf(e.model)?.fields ?? [],
    }),
    method: t.string({
      description: 'Plain-language description of how the model computes its figures.',
      resolve: (e) => methodOf(e.model)?.method ?? '',
    }),
    inputs: t.field({
      type: [ModelInputRef],
      description: 'The values this store fed into the model, one per input.',
      resolve: (e) => e.inputs,
    }),
  }),
});

const explain = (model: string, inputs: object): ModelExplanation => ({
  model,
  inputs: Object.entries(inputs).map(([name, value]) => ({ name, value: value as InputValue })),
});

async function observed(store: StoreRecord, ctx: GraphqlContext) {
  const [apps, summary, traffic] = await Promise.all([
    appsByStoreId(ctx).load(store.id),
    legacySummaryByDomain(ctx).load(store.domain),
    latestTrafficByStoreId(ctx).load(store.id),
  ]);
  const categories = apps.map((a) => a.category ?? '');
  return {
    hasReviewsApp: categories.some((c) => REVIEWS_CATEGORIES.has(c)),
    hasSupportApp: categories.some((c) => SUPPORT_CATEGORIES.has(c)),
    dropshippingAppCount: categories.filter((c) => DROPSHIPPING_CATEGORIES.has(c)).length,
    hasContactEmail: (summary?.emails.length ?? 0) > 0,
    socialProfiles: SOCIAL_NETWORKS.filter((n) => summary?.socials[n]).length,
    traffic,
  };
}

const StoreModels = builder.objectRef<StoreRecord>('StoreModels').implement({
  description: 'Method and inputs of each modeled figure of the store.',
  fields: (t) => ({
    visits: t.field({
      type: ModelExplanationRef,
      description: 'How monthlyVisits was modeled.',
      resolve: async (s, _args, ctx) => {
        const { traffic } = await observed(s, ctx);
        const inputs: VisitsInputs = {
          socialFollowers: s.socialFollowers,
          productCount: s.productCount,
          appCount: s.appCount,
          thirdPartyVisits: traffic?.visits ?? null,
        };
        return explain('visits', inputs);
      },
    }),
    revenue: t.field({
      type: ModelExplanationRef,
      description:
        'How monthlyRevenueUsd, conversionRatePct and averageOrderValueUsd were modeled.',
      resolve: (s) => {
        const inputs: RevenueInputs = {
          monthlyVisits: s.monthlyVisits,
          medianPriceUsd: s.medianPriceUsd,
          vertical: s.vertical,
        };
        return explain('revenue', inputs);
      },
    }),
    adSpend: t.field({
      type: ModelExplanationRef,
      description: 'How metrics.adSpendUsd was modeled.',
      resolve: async (s, _args, ctx) => {
        const { traffic } = await observed(s, ctx);
        const inputs: AdSpendInputs = {
          monthlyVisits: s.monthlyVisits,
          paidTrafficPct: traffic?.paidPct ?? null,
          isDropshipper: s.isDropshipper,
          averageOrderValueUsd: s.averageOrderValueUsd,
        };
        return explain('adSpend', inputs);
      },
    }),
    rating: t.field({
      type: ModelExplanationRef,
      description: 'How serviceRating (and so serviceGrade) was computed.',
      resolve: async (s, _args, ctx) => {
        const seen = await observed(s, ctx);
        const inputs: RatingInputs = {
          monthlyVisits: s.monthlyVisits,
          productCount: s.productCount,
          appCount: s.appCount,
          hasReviewsApp: seen.hasReviewsApp,
          hasSupportApp: seen.hasSupportApp,
          hasContactEmail: seen.hasContactEmail,
          socialProfiles: seen.socialProfiles,
          socialFollowers: s.socialFollowers,
          dropshipperScore: s.dropshipperScore,
        };
        return explain('rating', inputs);
      },
    }),
    dropshipper: t.field({
      type: ModelExplanationRef,
      description: 'How isDropshipper and dropshipperScore were classified.',
      resolve: async (s, _args, ctx) => {
        const seen = await observed(s, ctx);
        const inputs: DropshipperInputs = {
          dropshippingAppCount: seen.dropshippingAppCount,
          dropshipTextSignals: s.dropshipSignals,
          productCount: s.productCount,
          medianPriceUsd: s.medianPriceUsd,
        };
        return explain('dropshipper', inputs);
      },
    }),
  }),
});

builder.objectField(StoreRef, 'models', (t) =>
  t.field({
    type: StoreModels,
    description: "How each modeled figure was computed, with this store's inputs.",
    resolve: (s) => s,
  }),
);
