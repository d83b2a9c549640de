// Query and path parameter schemas of the REST routes. Query strings carry only text, so each
// schema first converts the exact textual form it accepts (and nothing looser: "1e2", " 5",
// "yes" stay strings and fail) and then checks the value; the messages are the `rule` of the
// bad_request details, written for the caller.
import { z } from 'zod';
import { DAY_RULE, dayOf } from '../src/graphql/scalars.ts';
import { SEEDED } from '../src/seed/seeded-catalog.ts';

const INTEGER = /^-?\d+$/;
const DECIMAL = /^-?(\d+(\.\d+)?|\.\d+)$/;

const fromText = (pattern: RegExp) => (value: unknown) =>
  typeof value === 'string' && pattern.test(value) ? Number(value) : value;

export function integerParam(range: { min: number; max?: number }) {
  const rule =
    range.max === undefined
      ? `must be an integer of at least ${range.min}`
      : `must be an integer from ${range.min} to ${range.max}`;
  const base = z.number({ error: rule }).int({ error: rule }).min(range.min, { error: rule });
  return z.preprocess(
    fromText(INTEGER),
    range.max === undefined ? base : base.max(range.max, { error: rule }),
  );
}

/** A finite decimal number written plainly (no exponent, no Infinity/NaN, no hex). */
export function numberParam(range: { min?: number } = {}) {
  const rule =
    range.min === undefined
      ? 'must be a finite number'
      : `must be a finite number of at least ${range.min}`;
  const base = z.number({ error: rule });
  return z.preprocess(
    fromText(DECIMAL),
    range.min === undefined ? base : base.min(range.min, { error: rule }),
  );
}

/** Only the words true and false: "1", "yes" or an empty value are rejected, not guessed. */
export const booleanParam = () =>
  z.preprocess(
    (value: unknown) => (value === 'true' ? true : value === 'false' ? false : value),
    z.boolean({ error: 'must be true or false' }),
  );

export const enumParam = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, { error: `must be one of: ${values.join(', ')}` });

export const textParam = (maxLength = 200) =>
  z
    .string({ error: 'must be given once, as text' })
    .trim()
    .min(1, { error: 'must not be empty' })
    .max(maxLength, { error: `must be at most ${maxLength} characters` });

/** A calendar day YYYY-MM-DD (UTC), checked here so the error names the parameter (the Date scalar cannot). */
export const dateParam = () =>
  z
    .string({ error: DAY_RULE })
    .refine((value) => dayOf(value) !== null, { error: DAY_RULE })
    .meta({ format: 'date' });

const MOMENT_RULE =
  'must be a date YYYY-MM-DD (midnight UTC) or an ISO 8601 timestamp with its offset, e.g. 2026-01-31T12:00:00Z';
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/i;

/** A day YYYY-MM-DD (its midnight UTC) or a full ISO 8601 timestamp with Z or an offset; as an ISO string in UTC. */
export const momentParam = () =>
  z.string({ error: MOMENT_RULE }).transform((value, ctx) => {
    const day = dayOf(value);
    const moment = day ?? (TIMESTAMP.test(value) ? new Date(value) : null);
    // Date accepts 2026-02-30T00:00Z (rolling it into March): the day written must be the day parsed
    const sameDay =
      day !== null ||
      (moment !== null && !Number.isNaN(moment.getTime()) && dayOf(value.slice(0, 10)) !== null);
    if (!moment || !sameDay) {
      ctx.addIssue({ code: 'custom', message: MOMENT_RULE });
      return z.NEVER;
    }
    return moment.toISOString();
  });

/** `{domain}`: a bare domain or a full URL (URL-encoded, or as is: src/http/url-in-path.ts); GraphQL normalises it. */
export const domainParam = () =>
  textParam(2048).meta({
    description:
      'A bare domain (example.com) or a full URL with scheme and optional www, URL-encoded ' +
      '(https%3A%2F%2Fwww.example.com) or as is (https://www.example.com).',
    example: SEEDED.domain,
  });

export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;

/** limit + offset of every list (spec part 4); history alone allows a longer page (MAX_HISTORY_DAYS). */
export function paginationParams(maxLimit: number = MAX_LIMIT) {
  return {
    limit: integerParam({ min: 1, max: maxLimit })
      .default(DEFAULT_LIMIT)
      .meta({ description: `Page size, 1 to ${maxLimit}.` }),
    offset: integerParam({ min: 0 })
      .default(0)
      .meta({ description: 'Items to skip. Stop paging when page.hasMore is false.' }),
  };
}

export type Pagination = { limit: number; offset: number };
