import { z } from 'zod';
import { scrapeBody } from '../../bodies.ts';
import {
  GetScrapeRequestDocument,
  RequestScrapeDocument,
  RequestScrapesBulkDocument,
} from '../../generated/operations.ts';
import { defineRoute, noPathParams, noQuery, type RestRoute } from '../../route.ts';
import { BULK_MAX_URLS } from '../../../src/scrapes/scrape-requests.ts';
import { UNLISTED } from '../../../src/seed/seeded-catalog.ts';
import { fromGraphqlEnum } from '../../../src/graphql/enums.ts';

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

const callbackUrl = z.string().max(2_000).meta({
  description:
    'HTTPS URL that receives scrape.done or scrape.failed once (see webhooks), signed per Standard Webhooks.',
  example: 'https://hooks.example.com/scrapes',
});
const force = z.boolean().meta({
  description:
    'Scrape even when the store is in the catalog. At most one forced request per store every 5 minutes.',
});

export const requestScrape = defineRoute({
  operationId: 'requestScrape',
  method: 'POST',
  path: '/v1/scrapes',
  tag: 'Scrapes',
  summary: 'Queue a scrape of a store',
  description:
    'When the store is not in the catalog, or force is true: a job is queued and the answer is HTTP 202 with the ' +
    'scrape request itself (`id`, `status`, `domain`, `force`, `callbackUrl`, timestamps) and, beside its fields, ' +
    '`outcome: "queued"` and `storeUrl` (poll GET /v1/scrapes/{id}; about two minutes typical). ' +
    'When the store is already in the catalog and force is not true: HTTP 200 with `{outcome: "already_exists", ' +
    'domain, storeUrl}` and no job. Asking again (not forced) while your request for the domain is still queued, ' +
    'validating or scraping answers that same request; no second job. A forced request for a store that had any scrape request in the last 5 minutes is ' +
    'rate_limited (429) with Retry-After and `details: {domain, cooldownSeconds, retryAfter}`. callbackUrl must be ' +
    'HTTPS (bad_request otherwise).',
  document: RequestScrapeDocument,
  pathParams: noPathParams,
  query: noQuery,
  body: z.strictObject({
    domain: z
      .string()
      .max(2_000)
      .meta({ description: 'A bare domain or a full URL.', example: UNLISTED.store }),
    force: force.optional(),
    callbackUrl: callbackUrl.optional(),
  }),
  canBeNotFound: false,
  variables: (p) => ({ domain: p.domain, force: p.force, callbackUrl: p.callbackUrl }),
  response: ScrapeOrder,
  respond: ({ requestScrape: { domain, scrape } }) => {
    const storeUrl = `/v1/stores/${domain}`;
    return scrape
      ? { ...scrapeBody(scrape), outcome: 'queued' as const, storeUrl }
      : { outcome: 'already_exists' as const, domain, storeUrl };
  },
  status: (body) => (body.outcome === 'queued' ? 202 : 200),
  successStatuses: {
    202: 'Queued: the scrape request, with `outcome: "queued"`.',
    200: 'already_exists: the store is in the catalog; no job was created.',
  },
  example: `/v1/scrapes {"domain":"${UNLISTED.store}"}`,
});

export const getScrapeRequest = defineRoute({
  operationId: 'getScrapeRequest',
  method: 'GET',
  path: '/v1/scrapes/{id}',
  tag: 'Scrapes',
  summary: 'The status of a scrape request',
  description:
    'queued, validating, scraping, then done or failed (with failureReason), with timestamps. The record lives until ' +
    'expiresAt, 15 minutes after the request ended; after that (and for ids that never existed) not_found. Only the ' +
    "account that made the request may read it (another account's id is not_found); requests made in open-dev mode " +
    'are readable in open-dev mode only. Polling counts against no daily bucket. {id} is the `id` of the POST /v1/scrapes ' +
    'answer (or of an item of POST /v1/scrapes/bulk).',
  document: GetScrapeRequestDocument,
  pathParams: z.strictObject({
    id: z.string().max(100).meta({ description: 'The id POST /v1/scrapes returned.' }),
  }),
  query: noQuery,
  canBeNotFound: true,
  variables: (p) => ({ id: p.id }),
  response: ScrapeRequest,
  respond: (data) => scrapeBody(data.scrapeRequest),
  example: '/v1/scrapes/{id}',
});

export const requestScrapesBulk = defineRoute({
  operationId: 'requestScrapesBulk',
  method: 'POST',
  path: '/v1/scrapes/bulk',
  tag: 'Scrapes',
  summary: 'Queue scrapes of up to 10 stores',
  description:
    `Each URL (1 to ${BULK_MAX_URLS}) is handled as its own POST /v1/scrapes with the same force and callbackUrl; one ` +
    'refusal never stops the others. The answer is HTTP 200 with one item per URL, in order (`{url, domain, outcome, id, ' +
    "scrape, error}`: `id` is the queued request's id), and counts per outcome. " +
    'Each URL counts as one scrape request against the scrapeRequests quota (and the per-minute rate): a bulk the ' +
    'remaining quota cannot cover is rate_limited as a whole and queues nothing.',
  document: RequestScrapesBulkDocument,
  pathParams: noPathParams,
  query: noQuery,
  body: z.strictObject({
    urls: z
      .array(z.string().max(2_000))
      .min(1)
      .max(BULK_MAX_URLS)
      .meta({
        description: `1 to ${BULK_MAX_URLS} domains or URLs.`,
        example: [UNLISTED.store, `https://${UNLISTED.otherStore}`],
      }),
    force: force.optional(),
    callbackUrl: callbackUrl.optional(),
  }),
  canBeNotFound: false,
  variables: (p) => ({ urls: p.urls, force: p.force, callbackUrl: p.callbackUrl }),
  response: BulkScrapeResult,
  respond: (data) => {
    const items = data.requestScrapesBulk.map((item) => ({
      ...item,
      outcome: fromGraphqlEnum(item.outcome),
      id: item.scrape?.scrapeRequestId ?? null,
      scrape: item.scrape && scrapeBody(item.scrape),
    }));
    const count = (outcome: string) => items.filter((i) => i.outcome === outcome).length;
    return {
      data: items,
      counts: {
        queued: count('queued'),
        alreadyExists: count('already_exists'),
        duplicate: count('duplicate'),
        rejected: count('rejected'),
      },
    };
  },
  example: `/v1/scrapes/bulk {"urls":["${UNLISTED.store}","${UNLISTED.otherStore}"]}`,
});

/** The scrape routes, in the order docs.md and the OpenAPI description list them. */
export const scrapeRoutes: readonly RestRoute[] = [
  requestScrape,
  requestScrapesBulk,
  getScrapeRequest,
];
