// The rate-limit headers of data routes (spec part 8 names only the X-RateLimit- prefix; the
// names and meanings below are our decision, implemented by the access layer). Discovery routes
// are not rate limited and carry none of them.
export const RATE_LIMIT_HEADER_NAMES = {
  limit: 'X-RateLimit-Limit',
  remaining: 'X-RateLimit-Remaining',
  reset: 'X-RateLimit-Reset',
} as const;

const integer = { type: 'integer', minimum: 0 } as const;

export const RATE_LIMIT_HEADERS = {
  [RATE_LIMIT_HEADER_NAMES.limit]: {
    description: 'Requests this key may make in the current one-minute window.',
    schema: integer,
  },
  [RATE_LIMIT_HEADER_NAMES.remaining]: {
    description: 'Requests left in the current one-minute window.',
    schema: integer,
  },
  [RATE_LIMIT_HEADER_NAMES.reset]: {
    description: 'Seconds until the current one-minute window resets.',
    schema: integer,
  },
};

export const RETRY_AFTER_HEADER = {
  'Retry-After': {
    description: 'Seconds to wait before retrying (per-minute rate: until the window resets; daily quota: until it renews).',
    required: true,
    schema: integer,
  },
};
