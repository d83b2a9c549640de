import { z } from 'zod';
import { DateTime, listOf } from './common.ts';
import { StoreCard } from './stores.ts';

export const VerticalStat = z
  .strictObject({
    vertical: z.string(),
    stores: z.number().int(),
    monthlyRevenueUsd: z
      .number()
      .meta({ description: 'Sum of the high ends of the modeled revenue bands, USD.' }),
    monthlyVisits: z.number().meta({ description: 'Sum of modeled monthly visits.' }),
    adSpendUsd: z.number().meta({ description: 'Sum of modeled monthly ad spend, USD.' }),
  })
  .meta({ id: 'VerticalStat' });

export const CountryStat = z
  .strictObject({
    countryCode: z.string(),
    stores: z.number().int(),
    monthlyRevenueUsd: z
      .number()
      .meta({ description: 'Sum of the high ends of the modeled revenue bands, USD.' }),
    monthlyVisits: z.number().meta({ description: 'Sum of modeled monthly visits.' }),
  })
  .meta({ id: 'CountryStat' });

export const AnalyticsOverview = z
  .strictObject({
    stores: z.number().int(),
    productsTracked: z.number().int(),
    appsTracked: z.number().int(),
    storesWithTraffic: z
      .number()
      .int()
      .meta({ description: 'Stores with a third-party traffic observation.' }),
    dropshippers: z.number().int().meta({ description: 'Stores classified as dropshippers.' }),
    averages: z.strictObject({
      monthlyVisits: z.number(),
      monthlyRevenueUsdHigh: z
        .number()
        .meta({ description: 'Mean high end of the modeled revenue band, USD.' }),
      serviceRating: z.number(),
    }),
    topVerticals: z
      .array(VerticalStat)
      .meta({ description: 'The 5 verticals with the most stores.' }),
    topCountries: z
      .array(CountryStat)
      .meta({ description: 'The 5 countries with the most stores.' }),
    generatedAt: DateTime,
  })
  .meta({
    id: 'AnalyticsOverview',
    description: 'Coverage counts, averages, top verticals and countries.',
  });

export const MOVER_METRICS = ['visits', 'revenue'] as const;
export const MOVER_DIRECTIONS = ['up', 'down'] as const;

export const Mover = z
  .strictObject({
    store: StoreCard,
    metric: z.enum(MOVER_METRICS),
    changePct: z.number().meta({ description: 'Signed change over 30 days, percent.' }),
    current: z
      .number()
      .meta({ description: 'Current modeled value (visits, or revenue band high end in USD).' }),
    previous: z.number().meta({ description: 'The value 30 days earlier.' }),
  })
  .meta({ id: 'Mover' });

export const VerticalStatList = listOf(
  VerticalStat,
  'VerticalStatList',
  'A page of verticals, most stores first.',
);
export const CountryStatList = listOf(
  CountryStat,
  'CountryStatList',
  'A page of countries, most stores first.',
);
export const MoverList = listOf(Mover, 'MoverList', 'A page of movers, largest change first.');
