// Every model's method text in one list, for the reference (docs.md, llms.txt, OpenAPI descriptions).
import { AD_SPEND_METHOD } from './ad-spend.ts';
import { DROPSHIPPER_METHOD } from './dropshipper.ts';
import { GROWTH_METHOD } from './growth.ts';
import { RATING_METHOD } from './rating.ts';
import { REVENUE_METHOD } from './revenue.ts';
import { VISITS_METHOD } from './visits.ts';

export const MODEL_METHODS: ReadonlyArray<{ model: string; fields: string[]; method: string }> = [
  { model: 'visits', fields: ['monthlyVisits'], method: VISITS_METHOD },
  {
    model: 'revenue',
    fields: ['monthlyRevenueUsd', 'conversionBand', 'averageOrderValueUsd'],
    method: REVENUE_METHOD,
  },
  { model: 'adSpend', fields: ['adSpendUsd'], method: AD_SPEND_METHOD },
  { model: 'rating', fields: ['serviceRating', 'serviceGrade'], method: RATING_METHOD },
  {
    model: 'dropshipper',
    fields: ['isDropshipper', 'dropshipperScore'],
    method: DROPSHIPPER_METHOD,
  },
  {
    model: 'growth',
    fields: ['visitsChangePct', 'revenueChangePct', 'changePct'],
    method: GROWTH_METHOD,
  },
];
