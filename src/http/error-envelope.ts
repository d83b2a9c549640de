// Every failure leaves the HTTP layer as the contract's envelope {error: {code, message, details}}
// with the status of HTTP_STATUS. Fastify's own request errors (bad JSON, wrong content type, body
// too large, bad URL) are the caller's mistakes: bad_request. Anything unrecognised is `internal`
// with a fixed message: a stack trace or driver text never reaches a caller, nor does anything
// shaped like an API key.
import http from 'node:http';
import type { Duplex } from 'node:stream';
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
function describeFrameworkError(
  code: unknown,
  bodyLimit: number,
): { message: string; parameter: string; rule: string } | undefined {
  switch (code) {
    case 'FST_ERR_BAD_URL':
      return {
        message: 'The URL is not valid.',
        parameter: 'url',
        rule: 'must be correctly percent-encoded',
      };
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return {
        message: 'The request body is not valid JSON.',
        parameter: 'body',
        rule: 'must be valid JSON',
      };
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return {
        message: 'The request body is empty but Content-Type is application/json.',
        parameter: 'body',
        rule: 'must not be empty',
      };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return {
        message:
          'Unsupported Content-Type: send the body as application/json (or text/csv where a route says it takes CSV).',
        parameter: 'body',
        rule: 'Content-Type must be application/json',
      };
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return {
        message: `The request body is larger than ${bodyLimit} bytes.`,
        parameter: 'body',
        rule: `at most ${bodyLimit} bytes`,
      };
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return {
        message: 'The request body does not match its Content-Length.',
        parameter: 'body',
        rule: 'must match Content-Length',
      };
    default:
      return undefined;
  }
}

const CODE_OF_CLIENT_STATUS: Record<number, ErrorCode> = {
  401: 'unauthorized',
  403: 'unauthorized',
  404: 'not_found',
  429: 'rate_limited',
};

export function toApiError(error: unknown, bodyLimit: number): ApiError {
  const fromDatabase = mapDatabaseError(error);
  if (fromDatabase) return fromDatabase;

  const framework = (typeof error === 'object' && error !== null ? error : {}) as FrameworkError;
  const described = describeFrameworkError(framework.code, bodyLimit);
  if (described)
    return new ApiError('bad_request', described.message, {
      parameter: described.parameter,
      rule: described.rule,
    });

  const status = typeof framework.statusCode === 'number' ? framework.statusCode : 500;
  if (status >= 400 && status < 500 && typeof framework.message === 'string') {
    return new ApiError(CODE_OF_CLIENT_STATUS[status] ?? 'bad_request', framework.message);
  }
  return new ApiError('internal', 'Internal server error.');
}

/** A key pasted where an id belongs is never echoed back: error bodies end up in clients' logs. */
export function envelope(error: ApiError): ErrorEnvelope {
  return {
    error: {
      code: error.code,
      message: redactApiKeys(error.message),
      details: redactApiKeys(error.details),
    },
  };
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
    .send({
      errors: [
        {
          message: redactApiKeys(error.message),
          extensions: { code: error.code, details: redactApiKeys(error.details) },
        },
      ],
    });
}

/** Node's own limit on the request line and headers together (node --max-http-header-size). */
const MAX_HEADER_BYTES = http.maxHeaderSize;

/** What a connection-level failure (before any request exists) tells the caller, or undefined for none. */
function clientErrorOf(code: unknown): ApiError | undefined {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return new ApiError('bad_request', 'The URL and headers are too long.', {
        parameter: 'url',
        rule: `the request line and headers together at most ${MAX_HEADER_BYTES} bytes`,
      });
    case 'ERR_HTTP_REQUEST_TIMEOUT':
    case 'ERR_HTTP_HEADERS_TIMEOUT':
      return new ApiError('bad_request', 'The request did not arrive in time.', {
        parameter: 'body',
        rule: "the whole request must arrive within the server's request deadline",
      });
    case 'ECONNRESET':
      return undefined;
    default:
      return new ApiError('bad_request', 'The request is not valid HTTP/1.1.', {
        parameter: 'request',
        rule: 'must be valid HTTP/1.1',
      });
  }
}

/**
 * Node's 'clientError' (a request too large or malformed to become a request, or too slow): the same
 * envelope as every other error, written on the raw socket because no reply object exists yet.
 */
export function writeClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  const apiError = socket.destroyed ? undefined : clientErrorOf(error.code);
  if (apiError) return writeErrorOnSocket(socket, apiError);
  socket.destroy();
}

/** Answers on a raw socket (no reply object exists: a malformed request, a refused WebSocket upgrade) with the envelope, then closes it. */
export function writeErrorOnSocket(socket: Duplex, apiError: ApiError): void {
  if (socket.writable) {
    const body = JSON.stringify(envelope(apiError));
    const retryAfter =
      apiError.retryAfter !== undefined ? `Retry-After: ${apiError.retryAfter}\r\n` : '';
    socket.write(
      `HTTP/1.1 ${apiError.status} ${http.STATUS_CODES[apiError.status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `${retryAfter}Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}
