// Shared pieces of the response bodies. Every schema here is the documented shape (OpenAPI is
// generated from it) and the compile-time target of the route's response mapping.
import { z } from 'zod';

export const Page = z
  .strictObject({
    limit: z
      .number()
      .int()
      .meta({ description: 'The page size asked for (the default 20 when not given).' }),
    offset: z.number().int().meta({ description: 'Items skipped before this page.' }),
    count: z.number().int().meta({ description: 'Items in this page.' }),
    hasMore: z.boolean().meta({ description: 'Whether a further page exists. Stop when false.' }),
    total: z
      .number()
      .int()
      .meta({
        description:
          'Items matching the request across all pages: exact up to 10,000, an estimate beyond (hasMore is always exact). ' +
          'GET /v1/stores without q answers it exactly at any size when its filters are ones the catalog keeps counts of ' +
          '(see the decisions in docs.md).',
      }),
  })
  .meta({ id: 'Page' });

export function listOf<T extends z.ZodType>(item: T, id: string, description: string) {
  return z.strictObject({ data: z.array(item), page: Page }).meta({ id, description });
}

export const RevenueBand = z
  .strictObject({
    low: z.number().meta({ description: 'Low end, USD per month.' }),
    high: z.number().meta({ description: 'High end, USD per month.' }),
  })
  .meta({
    id: 'RevenueBand',
    description:
      'Modeled monthly revenue band in USD: a model output, not merchant-reported sales.',
  });

export const PercentBand = z
  .strictObject({ low: z.number(), high: z.number() })
  .meta({ id: 'PercentBand', description: 'Modeled band in percent.' });

export const DateTime = z.string().meta({ format: 'date-time', description: 'ISO 8601, UTC.' });
export const Day = z
  .string()
  .meta({ format: 'date', description: 'Calendar day YYYY-MM-DD (UTC).' });
export const Month = z.string().meta({ description: 'Month as its first day, YYYY-MM-DD (UTC).' });

/** Nullable use of a named (component) schema. `.nullable()` on it would make the component itself
 *  nullable everywhere in the OpenAPI output; a union keeps the component intact. */
export const orNull = <T extends z.ZodType>(schema: T) => z.union([schema, z.null()]);
