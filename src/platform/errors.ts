// One error type for the whole service. The code is one of the contract's six (spec part 7);
// GraphQL carries it in extensions.code, REST maps it to the envelope and the HTTP status.
import { GraphQLError } from 'graphql';

export const ERROR_CODES = [
  'not_found',
  'bad_request',
  'unauthorized',
  'rate_limited',
  'query_timeout',
  'internal',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/** HTTP status of each code (400, 401, 404 and 504 are our decisions where the contract says "not shown"). */
export const HTTP_STATUS: Record<ErrorCode, number> = {
  bad_request: 400,
  unauthorized: 401,
  not_found: 404,
  rate_limited: 429,
  internal: 500,
  query_timeout: 504,
};

/**
 * The contract names two statuses beside the codes' own (409 for a domain already watched) or leaves
 * room for them (403 for a valid key that may not do a thing), but keeps `code` to the six. The
 * `details.reason` of such an error says which case it is, and that reason alone sets the status,
 * so it survives the trip through GraphQL's extensions to the REST envelope.
 */
export const REASONS = {
  /** POST /v1/signals for a domain this account already watches */
  already_tracked: { code: 'bad_request', status: 409 },
  /** POST /v1/alerts when the account already has the most alerts its plan allows */
  alert_limit: { code: 'bad_request', status: 409 },
  /** a partner key's write, or an API key on the web app's key-management fields */
  scope: { code: 'unauthorized', status: 403 },
  /** a key whose account is not on a paid plan */
  plan: { code: 'unauthorized', status: 403 },
  /** the structured store is down (restarting); retry after Retry-After */
  database_unavailable: { code: 'internal', status: 503 },
} as const satisfies Record<string, { code: ErrorCode; status: number }>;
export type ErrorReason = keyof typeof REASONS;

export type ErrorDetails = Record<string, unknown> | null;

const reasonOf = (details: ErrorDetails): ErrorReason | undefined => {
  const reason = details?.reason;
  return typeof reason === 'string' && Object.hasOwn(REASONS, reason)
    ? (reason as ErrorReason)
    : undefined;
};

export class ApiError extends GraphQLError {
  readonly code: ErrorCode;
  readonly details: ErrorDetails;
  /** seconds a caller should wait (rate_limited, database_unavailable) */
  readonly retryAfter?: number;

  constructor(code: ErrorCode, message: string, details: ErrorDetails = null, retryAfter?: number) {
    super(message, {
      extensions: { code, details, ...(retryAfter !== undefined ? { retryAfter } : {}) },
    });
    this.code = code;
    this.details = details;
    this.retryAfter = retryAfter;
  }

  get status(): number {
    const reason = reasonOf(this.details);
    return reason && REASONS[reason].code === this.code
      ? REASONS[reason].status
      : HTTP_STATUS[this.code];
  }
}

export const badRequest = (message: string, details: ErrorDetails = null) =>
  new ApiError('bad_request', message, details);
export const notFound = (message: string, details: ErrorDetails = null) =>
  new ApiError('not_found', message, details);
/** An error of a named reason: its code and status come from REASONS. */
export const reasonError = (
  reason: ErrorReason,
  message: string,
  details: Record<string, unknown> = {},
  retryAfter?: number,
) => new ApiError(REASONS[reason].code, message, { reason, ...details }, retryAfter);

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && (ERROR_CODES as readonly string[]).includes(value);
}
