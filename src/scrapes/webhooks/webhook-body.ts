// The body of the scrape.done and scrape.failed events, in the Standard Webhooks envelope
// {type, timestamp, data}. The zod schema is the documentation (the OpenAPI webhooks section) and
// the type the sender builds.
import { z } from 'zod';
import type { ScrapeRecord } from '../scrape-record.ts';
import { UNLISTED } from '../../seed/seeded-catalog.ts';

export const SCRAPE_EVENTS = ['scrape.done', 'scrape.failed'] as const;
export type ScrapeEvent = (typeof SCRAPE_EVENTS)[number];

const time = z.string().meta({ description: 'ISO 8601 UTC.', example: '2026-01-05T10:02:11.000Z' });

export const ScrapeWebhookData = z
  .object({
    id: z
      .string()
      .meta({ description: 'The scrape request id (as returned by POST /v1/scrapes).' }),
    domain: z
      .string()
      .meta({ description: "The store's canonical domain.", example: UNLISTED.store }),
    status: z.enum(['done', 'failed']),
    force: z.boolean(),
    failureReason: z
      .string()
      .nullable()
      .meta({ description: 'Why the scrape failed; null when done.' }),
    createdAt: time,
    startedAt: time.nullable(),
    finishedAt: time,
    storeUrl: z
      .string()
      .nullable()
      .meta({
        description: `Path of the store profile, e.g. /v1/stores/${UNLISTED.store}; null when failed.`,
      }),
  })
  .meta({ id: 'ScrapeWebhookData' });

export const ScrapeWebhookBody = z
  .object({
    type: z.enum(SCRAPE_EVENTS).meta({ description: 'The event.' }),
    timestamp: time.meta({
      description: 'When the request ended (ISO 8601 UTC); the same on every retry.',
    }),
    data: ScrapeWebhookData,
  })
  .meta({
    id: 'ScrapeWebhookEvent',
    description: 'Sent once per scrape request that carried a callbackUrl, when it ends.',
  });
export type ScrapeWebhookBody = z.infer<typeof ScrapeWebhookBody>;

export function scrapeWebhookBody(
  record: ScrapeRecord & { status: 'done' | 'failed'; finishedAt: string },
): ScrapeWebhookBody {
  return {
    type: record.status === 'done' ? 'scrape.done' : 'scrape.failed',
    timestamp: record.finishedAt,
    data: {
      id: record.id,
      domain: record.domain,
      status: record.status,
      force: record.force,
      failureReason: record.failureReason,
      createdAt: record.createdAt,
      startedAt: record.startedAt,
      finishedAt: record.finishedAt,
      storeUrl: record.status === 'done' ? `/v1/stores/${record.domain}` : null,
    },
  };
}
