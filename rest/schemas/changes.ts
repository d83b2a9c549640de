import { z } from 'zod';
import { DateTime, listOf } from './common.ts';

export const CHANGE_ENTITIES = ['product', 'app', 'store'] as const;
export const PRODUCT_CHANGE_TYPES = [
  'price_decrease',
  'price_increase',
  'new_sku',
  'removed_sku',
] as const;

export const Change = z
  .strictObject({
    id: z.string(),
    entity: z.enum(CHANGE_ENTITIES),
    changeType: z.string().meta({
      description:
        `product: ${PRODUCT_CHANGE_TYPES.join(', ')}; app: app_installed, app_uninstalled; store: what changed: ` +
        'theme_changed, revenue_band_changed (the modeled monthly revenue band moved; oldValue and newValue "low-high" ' +
        'USD, changePct its 30-day change) or domain_changed (the store moved to a new host).',
    }),
    domain: z.string(),
    subject: z
      .string()
      .nullable()
      .meta({ description: 'What changed inside the store: a product handle or an app slug.' }),
    summary: z.string().meta({ description: 'One-line human summary.' }),
    oldValue: z.string().nullable(),
    newValue: z.string().nullable(),
    changePct: z
      .number()
      .nullable()
      .meta({ description: 'Relative change in percent, when numeric.' }),
    currency: z.string().nullable().meta({
      description:
        "ISO 4217 currency of a product change's oldValue and newValue (prices): the store's own; null for app and store changes.",
    }),
    detectedAt: DateTime.meta({ description: 'When the scrape that saw the difference ran.' }),
  })
  .meta({
    id: 'Change',
    description: 'A difference between two observations (scrapes), not a complete event stream.',
  });

export const ChangeList = listOf(Change, 'ChangeList', 'A page of change records, newest first.');
