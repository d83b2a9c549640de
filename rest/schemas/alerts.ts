// Response bodies of the alert routes (rest/routes/alerts.ts).
import { z } from 'zod';
import { DateTime, listOf } from './common.ts';

export const Alert = z
  .strictObject({
    id: z.number().int().meta({ description: 'The alert id.', example: 1 }),
    name: z.string(),
    filter: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).meta({
      description:
        'The filter as given: query parameters of GET /v1/stores with their values in the same formats.',
      example: { app: 'klaviyo-email-marketing' },
    }),
    callbackUrl: z.string().nullable().meta({
      description: 'Where alert.matched webhooks go (at most one a minute); null: none.',
    }),
    createdAt: DateTime,
    matchCount: z.number().int().meta({ description: 'Stores matched so far.' }),
    links: z.strictObject({ matches: z.string() }),
  })
  .meta({ id: 'Alert', description: "A saved search that alerts, scoped to the key's account." });

export const AlertList = listOf(
  Alert,
  'AlertList',
  "A page of the account's alerts, newest first.",
);

export const AlertMatch = z
  .strictObject({
    domain: z
      .string()
      .meta({ description: "The store's canonical domain (GET /v1/stores/{domain})." }),
    matchedAt: DateTime.meta({
      description: 'When the observation that made the store match was made.',
    }),
  })
  .meta({ id: 'AlertMatch', description: "A store that newly matched the alert's filter." });

export const AlertMatchList = listOf(
  AlertMatch,
  'AlertMatchList',
  "A page of an alert's matches, newest first.",
);

export const DeletedAlert = z
  .strictObject({ id: z.number().int(), deleted: z.literal(true) })
  .meta({ id: 'DeletedAlert' });
