// One error type for the whole service. The code is one of the contract's list (spec part 7);
// GraphQL carries it in extensions.code, REST maps it to the envelope and the HTTP status.
import { GraphQLError } from 'graphql';

export const ERROR_CODES = [
  'not_found',
  'bad_request',
  'unauthorized',
  'conflict',
  'forbidden',
  'rate_limited',
  'query_timeout',
  'internal',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/** HTTP status of each code. conflict (409) and forbidden (403) are our decisions where the contract
 *  says "not shown"; both are documented in docs.md and the OpenAPI description. */
export const HTTP_STATUS: Record<ErrorCode, number> = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  rate_limited: 429,
  internal: 500,
  query_timeout: 504,
};

export type ErrorDetails = Record<string, unknown> | null;

export class ApiError extends GraphQLError {
  readonly code: ErrorCode;
  readonly details: ErrorDetails;
  /** seconds a caller should wait (rate_limited) */
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
    return HTTP_STATUS[this.code];
  }
}

export const badRequest = (message: string, details: ErrorDetails = null) =>
  new ApiError('bad_request', message, details);
export const notFound = (message: string, details: ErrorDetails = null) =>
  new ApiError('not_found', message, details);

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && (ERROR_CODES as readonly string[]).includes(value);
}
