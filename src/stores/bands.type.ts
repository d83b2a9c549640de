// Modeled figures come as bands, never as one number presented as fact.
import { builder } from '../graphql/builder.ts';

export interface Band {
  low: number;
  high: number;
}

export const RevenueBand = builder.objectRef<Band>('RevenueBand').implement({
  description: 'Modeled monthly revenue band in USD (a model, not merchant-reported sales).',
  fields: (t) => ({
    low: t.exposeFloat('low', { description: 'Low end of the band, USD per month.' }),
    high: t.exposeFloat('high', { description: 'High end of the band, USD per month.' }),
  }),
});

export const PercentBand = builder.objectRef<Band>('PercentBand').implement({
  description: 'Modeled percentage band, e.g. conversion rate 1.2 to 2.4 (percent).',
  fields: (t) => ({
    low: t.exposeFloat('low', { description: 'Low end of the band, in percent (1.2 means 1.2%).' }),
    high: t.exposeFloat('high', { description: 'High end of the band, in percent.' }),
  }),
});
