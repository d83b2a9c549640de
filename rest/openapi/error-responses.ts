// The error responses each route documents: the contract's envelope, with `code` narrowed to the
// codes a given status carries. An error kind is a code (answered with its own status) or a reason
// of src/platform/errors.ts (a code of the six answered with another status, e.g. 409).
import { z } from 'zod';
import {
  HTTP_STATUS,
  REASONS,
  type ErrorCode,
  type ErrorReason,
} from '../../src/platform/errors.ts';
import { RATE_LIMIT_HEADERS, RETRY_AFTER_HEADER } from './rate-limit-headers.ts';

export type ErrorKind = ErrorCode | ErrorReason;

const DESCRIPTIONS: Record<ErrorKind, string> = {
  bad_request:
    'Malformed or invalid request. details = {parameter, rule}: the parameter (query, path or body) and the rule it ' +
    'broke; unknown query parameters are rejected the same way.',
  unauthorized:
    'Missing or invalid API key (send Authorization: Bearer <key> or X-Api-Key: <key>; never in the query). A self-hosted ' +
    'server mints keys with `npm run keys -- create --account ACCOUNT --plan starter`.',
  not_found:
    'The resource does not exist. details names what was looked up (e.g. {domain}, {domain, handle}, {slug}).',
  rate_limited:
    'Per-minute rate, per-key daily ceiling or daily bucket used up. details = {bucket, limit, window, retryAfter}: ' +
    'bucket is perMinute, perKeyDaily, the daily bucket (storeSearches, storeLookups, productSearches, ' +
    'productAppLookups, scrapeRequests) or unauthenticated (requests without a valid key from one address, per ' +
    'minute); window is minute or day. Wait Retry-After seconds, then retry.',
  query_timeout: 'The backing query timed out. Narrow the filters or retry later.',
  internal:
    'Server-side failure. The message is generic; the request id (X-Request-Id) locates it in our logs.',
  already_tracked:
    'code bad_request with details.reason "already_tracked": this account already watches the domain (details.domain, ' +
    'details.watch); nothing changed.',
  alert_limit:
    'code bad_request with details.reason "alert_limit": the account has the most alerts its plan allows ' +
    '(details.plan, details.limit); delete one first.',
  scope:
    'code unauthorized with details.reason "scope": the key is valid but its scope does not allow the request (a partner ' +
    'key with signals:read writing to Signals: details.scope).',
  plan:
    'code unauthorized with details.reason "plan": the key\'s account is not on a paid plan (details.plan, ' +
    'details.requiredPlans).',
  database_unavailable:
    'code internal with details.reason "database_unavailable": the database is restarting; wait Retry-After seconds, then retry.',
};

const codeOf = (kind: ErrorKind): ErrorCode =>
  kind in REASONS ? REASONS[kind as ErrorReason].code : (kind as ErrorCode);
export const statusOf = (kind: ErrorKind): number =>
  kind in REASONS ? REASONS[kind as ErrorReason].status : HTTP_STATUS[kind as ErrorCode];

const details = {
  bad_request: z
    .object({ parameter: z.string(), rule: z.string() })
    .nullable()
    .meta({ description: 'The parameter and the rule it broke.' }),
  generic: z
    .record(z.string(), z.unknown())
    .nullable()
    .meta({ description: 'Structured facts about the error, or null.' }),
  reason: (reasons: readonly ErrorReason[]) =>
    z
      .looseObject({ reason: z.enum(reasons as [ErrorReason, ...ErrorReason[]]) })
      .meta({ description: 'reason names the case; the other fields are facts about it.' }),
};

const envelopes = new Map<string, z.ZodType>();

/** The envelope of one status's error kinds: the code it carries and, for a reason's status, details with that reason. */
function envelopeOf(kinds: readonly ErrorKind[]): z.ZodType {
  const code = codeOf(kinds[0]!);
  const reasons = kinds.filter((kind): kind is ErrorReason => kind in REASONS);
  const id = [`Error_${code}`, ...reasons].join('_');
  let schema = envelopes.get(id);
  if (!schema) {
    schema = z
      .strictObject({
        error: z.strictObject({
          code: z.literal(code),
          message: z.string().meta({ description: 'Human-readable explanation.' }),
          details: reasons.length
            ? details.reason(reasons)
            : code === 'bad_request'
              ? details.bad_request
              : details.generic,
        }),
      })
      .meta({ id, description: kinds.map((kind) => DESCRIPTIONS[kind]).join(' ') });
    envelopes.set(id, schema);
  }
  return schema;
}

/** Errors every data route can answer with. */
export const DATA_ROUTE_ERRORS: readonly ErrorKind[] = [
  'bad_request',
  'unauthorized',
  'plan',
  'rate_limited',
  'internal',
  'database_unavailable',
  'query_timeout',
];

export function errorResponses(kinds: readonly ErrorKind[]) {
  const byStatus = new Map<number, ErrorKind[]>();
  for (const kind of new Set(kinds))
    byStatus.set(statusOf(kind), [...(byStatus.get(statusOf(kind)) ?? []), kind]);
  return Object.fromEntries(
    [...byStatus.entries()]
      .sort(([a], [b]) => a - b)
      .map(([status, group]) => [
        String(status),
        {
          description: group.map((kind) => `${codeOf(kind)}: ${DESCRIPTIONS[kind]}`).join(' '),
          ...(group.includes('rate_limited')
            ? { headers: { ...RETRY_AFTER_HEADER, ...RATE_LIMIT_HEADERS } }
            : group.includes('database_unavailable')
              ? { headers: RETRY_AFTER_HEADER }
              : {}),
          content: { 'application/json': { schema: envelopeOf(group) } },
        },
      ]),
  );
}

export const errorDescription = (kind: ErrorKind) => DESCRIPTIONS[kind];
