// Response bodies of the scrape routes (POST /v1/scrapes, GET /v1/scrapes/{id}, POST /v1/scrapes/bulk).
import { z } from 'zod';
import { UNLISTED } from '../../src/seed/seeded-catalog.ts';

const time = z.string().meta({ description: 'ISO 8601 UTC.' });

export const ScrapeRequest = z
  .strictObject({
    id: z.string().meta({
      description: 'The request id (a UUID).',
      example: '3f0c6f1e-8c1a-4c33-9a55-0b7f6f1f2a10',
    }),
    domain: z
      .string()
      .meta({ description: "The store's canonical domain.", example: UNLISTED.store }),
    status: z.enum(['queued', 'validating', 'scraping', 'done', 'failed']).meta({
      description:
        'queued -> validating -> scraping -> done; failed from validating or scraping (see failureReason).',
    }),
    force: z.boolean(),
    callbackUrl: z.string().nullable(),
    failureReason: z
      .string()
      .nullable()
      .meta({ description: 'Why the request failed; null otherwise.' }),
    createdAt: time,
    updatedAt: time,
    startedAt: time.nullable().meta({ description: 'When validation began.' }),
    finishedAt: time.nullable(),
    expiresAt: time
      .nullable()
      .meta({ description: 'finishedAt + 15 minutes; after it, GET answers not_found.' }),
  })
  .meta({ id: 'ScrapeRequest', description: 'The status record of a scrape request.' });

const storeUrl = z.string().meta({
  description: `Where the store profile is (or will be) readable, e.g. /v1/stores/${UNLISTED.store}.`,
});

/** HTTP 202: the scrape request itself, with the outcome and the profile's address beside its fields. */
export const ScrapeQueued = ScrapeRequest.extend({
  outcome: z.literal('queued').meta({
    description:
      'A job was created (or one already queued or running for this domain is answered): poll GET /v1/scrapes/{id}.',
  }),
  storeUrl,
}).meta({ id: 'ScrapeQueued', description: 'The scrape request (HTTP 202).' });

/** HTTP 200: no job; the store is already in the catalog. */
export const ScrapeAlreadyExists = z
  .strictObject({
    outcome: z.literal('already_exists').meta({
      description: 'The store is in the catalog and force was not true: no job was created.',
    }),
    domain: z.string(),
    storeUrl,
  })
  .meta({ id: 'ScrapeAlreadyExists', description: 'The already_exists indication (HTTP 200).' });

export const ScrapeOrder = z.union([ScrapeQueued, ScrapeAlreadyExists]).meta({ id: 'ScrapeOrder' });

export const BulkScrapeItem = z
  .strictObject({
    url: z.string().meta({ description: 'The URL as given.' }),
    domain: z
      .string()
      .nullable()
      .meta({ description: 'Its canonical domain; null when the URL is not a domain.' }),
    outcome: z.enum(['queued', 'already_exists', 'duplicate', 'rejected']).meta({
      description:
        'queued / already_exists as for POST /v1/scrapes; duplicate: the same domain earlier in this list; rejected: see error.',
    }),
    id: z
      .string()
      .nullable()
      .meta({ description: "The item's scrape request id when queued; null otherwise." }),
    scrape: ScrapeRequest.nullable().meta({
      description: 'The status record of that request when queued; null otherwise.',
    }),
    error: z.strictObject({ code: z.string(), message: z.string() }).nullable().meta({
      description:
        'For rejected: the error the single request would have answered (bad_request, rate_limited).',
    }),
  })
  .meta({ id: 'BulkScrapeItem' });

export const BulkScrapeResult = z
  .strictObject({
    data: z.array(BulkScrapeItem).meta({ description: 'One item per URL, in the order given.' }),
    counts: z.strictObject({
      queued: z.number().int(),
      alreadyExists: z.number().int(),
      duplicate: z.number().int(),
      rejected: z.number().int(),
    }),
  })
  .meta({ id: 'BulkScrapeResult' });
