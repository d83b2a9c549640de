// The rate-limit headers of data routes (spec part 8 names only the X-RateLimit- prefix; the
// names and meanings below are our decision, implemented by src/access/headers.ts). Discovery
// routes are not rate limited and carry none of them.
export const RATE_LIMIT_HEADER_NAMES = {
  limit: 'X-RateLimit-Limit',
  remaining: 'X-RateLimit-Remaining',
  reset: 'X-RateLimit-Reset',
  policy: 'RateLimit-Policy',
  ietf: 'RateLimit',
} as const;

const integer = { type: 'integer', minimum: 0 } as const;
const text = { type: 'string' } as const;

export const RATE_LIMIT_HEADERS = {
  [RATE_LIMIT_HEADER_NAMES.limit]: {
    description:
      'Size of the most constraining limit this request counted against: the per-minute rate, the per-key daily ' +
      'ceiling or the account\'s daily bucket for this route, whichever has the fewest requests left.',
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
      'Every limit this request counted against (IETF RateLimit-Policy): `"perMinute";q=60;w=60, ' +
      '"perKeyDaily";q=5000;w=86400, "storeSearches";q=500;w=86400`; q = size, w = window in seconds.',
    schema: text,
  },
  [RATE_LIMIT_HEADER_NAMES.ietf]: {
    description:
      'What is left of each of those limits (IETF RateLimit): `"storeSearches";r=499;t=3600`; r = requests ' +
      'remaining, t = seconds until it renews.',
    schema: text,
  },
};

export const RETRY_AFTER_HEADER = {
  'Retry-After': {
    description: 'Seconds to wait before retrying (per-minute rate: until the window resets; daily quota: until it renews).',
    required: true,
    schema: integer,
  },
};
