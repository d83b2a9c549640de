// The rate-limit headers of data routes in the OpenAPI description (spec part 8 names only the
// X-RateLimit- prefix; the names, meanings and examples are our decision, implemented by
// src/access/headers.ts). Discovery routes are not rate limited and carry none of them.
import { exampleRateLimitHeaders, RATE_LIMIT_HEADER_NAMES } from '../../src/access/headers.ts';

export { RATE_LIMIT_HEADER_NAMES };
const example = exampleRateLimitHeaders();

const integer = { type: 'integer', minimum: 0 } as const;
const text = { type: 'string' } as const;

export const RATE_LIMIT_HEADERS = {
  [RATE_LIMIT_HEADER_NAMES.limit]: {
    description:
      'Size of the most constraining limit this request counted against: the per-minute rate, the per-key daily ' +
      "ceiling or the account's daily bucket for this route, whichever has the fewest requests left.",
    schema: integer,
  },
  [RATE_LIMIT_HEADER_NAMES.remaining]: {
    description: 'Requests left under that limit.',
    schema: integer,
  },
  [RATE_LIMIT_HEADER_NAMES.reset]: {
    description: 'Seconds until that limit renews (the minute window ends, or the UTC day does).',
    schema: integer,
  },
  [RATE_LIMIT_HEADER_NAMES.policy]: {
    description:
      `Every limit this request counted against (IETF RateLimit-Policy), e.g. a starter key on a store search: ` +
      `\`${example[RATE_LIMIT_HEADER_NAMES.policy]}\`; q = size, w = window in seconds.`,
    schema: text,
  },
  [RATE_LIMIT_HEADER_NAMES.ietf]: {
    description:
      `What is left of each of those limits (IETF RateLimit), e.g. after that key's first search of the day, an ` +
      `hour before UTC midnight: \`${example[RATE_LIMIT_HEADER_NAMES.ietf]}\`; r = requests remaining, t = seconds ` +
      'until it renews.',
    schema: text,
  },
};

export const RETRY_AFTER_HEADER = {
  'Retry-After': {
    description:
      'Seconds to wait before retrying (per-minute rate: until the window resets; daily quota: until it renews).',
    required: true,
    schema: integer,
  },
};
