// The error responses each route documents: the contract's envelope, with `code` narrowed to the
// codes a given status carries.
import { z } from 'zod';
import { HTTP_STATUS, type ErrorCode } from '../../src/platform/errors.ts';
import { RATE_LIMIT_HEADERS, RETRY_AFTER_HEADER } from './rate-limit-headers.ts';

const DESCRIPTIONS: Record<ErrorCode, string> = {
  bad_request:
    'Malformed or invalid request. details = {parameter, rule}: the parameter (query, path or body) and the rule it ' +
    'broke; unknown query parameters are rejected the same way.',
  unauthorized: 'Missing or invalid API key (send Authorization: Bearer <key> or X-Api-Key: <key>; never in the query).',
  forbidden:
    'The key is valid but may not do this: its account is not on a paid plan (details.plan, details.requiredPlans), ' +
    'or its scope does not allow the request.',
  not_found: 'The resource does not exist. details names what was looked up (e.g. {domain}, {domain, handle}, {slug}).',
  conflict: 'The request conflicts with the current state (e.g. a domain already watched).',
  rate_limited:
    'Per-minute rate, per-key daily ceiling or daily bucket used up. details = {bucket, limit, window, retryAfter}: ' +
    'bucket is perMinute, perKeyDaily or the daily bucket (storeSearches, storeLookups, productSearches, ' +
    'productAppLookups, scrapeRequests); window is minute or day. Wait Retry-After seconds, then retry.',
  query_timeout: 'The backing query timed out. Narrow the filters or retry later.',
  internal: 'Server-side failure. The message is generic; the request id (X-Request-Id) locates it in our logs.',
};

const details = {
  bad_request: z
    .object({ parameter: z.string(), rule: z.string() })
    .nullable()
    .meta({ description: 'The parameter and the rule it broke.' }),
  generic: z.record(z.string(), z.unknown()).nullable().meta({ description: 'Structured facts about the error, or null.' }),
};

const envelopes = new Map<ErrorCode, z.ZodType>();

export function errorEnvelope(code: ErrorCode): z.ZodType {
  let schema = envelopes.get(code);
  if (!schema) {
    const id = `Error_${code}`;
    schema = z
      .strictObject({
        error: z.strictObject({
          code: z.literal(code),
          message: z.string().meta({ description: 'Human-readable explanation.' }),
          details: code === 'bad_request' ? details.bad_request : details.generic,
        }),
      })
      .meta({ id, description: DESCRIPTIONS[code] });
    envelopes.set(code, schema);
  }
  return schema;
}

/** Codes every data route can answer with. */
export const DATA_ROUTE_ERRORS: readonly ErrorCode[] = ['bad_request', 'unauthorized', 'forbidden', 'rate_limited', 'internal', 'query_timeout'];

export function errorResponses(codes: readonly ErrorCode[]) {
  const sorted = [...codes].sort((a, b) => HTTP_STATUS[a] - HTTP_STATUS[b]);
  return Object.fromEntries(
    sorted.map((code) => [
      String(HTTP_STATUS[code]),
      {
        description: `${code}: ${DESCRIPTIONS[code]}`,
        ...(code === 'rate_limited' ? { headers: { ...RETRY_AFTER_HEADER, ...RATE_LIMIT_HEADERS } } : {}),
        content: { 'application/json': { schema: errorEnvelope(code) } },
      },
    ]),
  );
}

export const errorDescription = (code: ErrorCode) => DESCRIPTIONS[code];
