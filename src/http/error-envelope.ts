// Every failure leaves the HTTP layer as the contract's envelope {error: {code, message, details}}
// with the status of HTTP_STATUS. Fastify's own request errors (bad JSON, wrong content type, body
// too large, bad URL) are the caller's mistakes: bad_request. Anything unrecognised is `internal`
// with a fixed message: a stack trace or driver text never reaches a caller, nor does anything
// shaped like an API key.
import type { FastifyReply } from 'fastify';
import { ApiError, type ErrorCode } from '../platform/errors.ts';
import { mapDatabaseError } from '../platform/database/database-errors.ts';
import { redactApiKeys } from '../access/key-format.ts';

export interface ErrorEnvelope {
  error: { code: ErrorCode; message: string; details: Record<string, unknown> | null };
}

interface FrameworkError {
  code?: unknown;
  statusCode?: unknown;
  message?: unknown;
}

/** Fastify request errors we answer with our own wording; the rest keep Fastify's (safe, generic) message. */
function describeFrameworkError(code: unknown, bodyLimit: number): { message: string; parameter: string; rule: string } | undefined {
  switch (code) {
    case 'FST_ERR_BAD_URL':
      return { message: 'The URL is not valid.', parameter: 'url', rule: 'must be correctly percent-encoded' };
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return { message: 'The request body is not valid JSON.', parameter: 'body', rule: 'must be valid JSON' };
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return { message: 'The request body is empty but Content-Type is application/json.', parameter: 'body', rule: 'must not be empty' };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return { message: 'Unsupported Content-Type: send the body as application/json.', parameter: 'body', rule: 'Content-Type must be application/json' };
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return { message: `The request body is larger than ${bodyLimit} bytes.`, parameter: 'body', rule: `at most ${bodyLimit} bytes` };
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return { message: 'The request body does not match its Content-Length.', parameter: 'body', rule: 'must match Content-Length' };
    default:
      return undefined;
  }
}

const CODE_OF_CLIENT_STATUS: Record<number, ErrorCode> = {
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  409: 'conflict',
  429: 'rate_limited',
};

export function toApiError(error: unknown, bodyLimit: number): ApiError {
  const fromDatabase = mapDatabaseError(error);
  if (fromDatabase) return fromDatabase;

  const framework = (typeof error === 'object' && error !== null ? error : {}) as FrameworkError;
  const described = describeFrameworkError(framework.code, bodyLimit);
  if (described) return new ApiError('bad_request', described.message, { parameter: described.parameter, rule: described.rule });

  const status = typeof framework.statusCode === 'number' ? framework.statusCode : 500;
  if (status >= 400 && status < 500 && typeof framework.message === 'string') {
    return new ApiError(CODE_OF_CLIENT_STATUS[status] ?? 'bad_request', framework.message);
  }
  return new ApiError('internal', 'Internal server error.');
}

/** A key pasted where an id belongs is never echoed back: error bodies end up in clients' logs. */
export function envelope(error: ApiError): ErrorEnvelope {
  return { error: { code: error.code, message: redactApiKeys(error.message), details: redactApiKeys(error.details) } };
}

export function sendError(reply: FastifyReply, error: ApiError): FastifyReply {
  if (error.retryAfter !== undefined) reply.header('retry-after', String(error.retryAfter));
  return reply.status(error.status).type('application/json; charset=utf-8').send(envelope(error));
}

/**
 * The same failure as a GraphQL response, for /graphql: GraphQL clients read `errors`, also when
 * the request failed before GraphQL ran (the access check, a data store outage).
 */
export function sendGraphqlError(reply: FastifyReply, error: ApiError): FastifyReply {
  if (error.retryAfter !== undefined) reply.header('retry-after', String(error.retryAfter));
  return reply
    .status(error.status)
    .type('application/json; charset=utf-8')
    .send({ errors: [{ message: redactApiKeys(error.message), extensions: { code: error.code, details: redactApiKeys(error.details) } }] });
}
