// Turns failures of the structured store into the contract's errors. A statement cancelled by
// statement_timeout (SQLSTATE 57014) is `query_timeout`; text PostgreSQL cannot hold (a NUL
// character, which only a caller's input carries) is `bad_request`; a connection-level failure (a
// server unreachable, dropped, starting up or out of connections) is `internal`, HTTP 503 with
// Retry-After, with a fixed message, because host names, ports and driver text are internals a
// caller must not see. Errors arrive either from pg directly (raw pool) or wrapped by Prisma, which
// keeps the driver's classification under meta.driverAdapterError.cause.
import { ApiError, reasonError } from '../errors.ts';

/** what a caller is told to wait while the database cannot be reached (a restart takes a few seconds) */
export const DATABASE_RETRY_AFTER_S = 5;

const QUERY_CANCELED = '57014';
/** SQLSTATE 22021 (a NUL byte in text) and 22P05 (\u0000 in JSON): values only a caller's input carries */
const UNSTORABLE_TEXT = new Set(['22021', '22P05']);

/** Prisma's driver-adapter error kinds that mean "no usable connection". */
const PRISMA_CONNECTION_KINDS = new Set([
  'DatabaseNotReachable',
  'ConnectionClosed',
  'SocketTimeout',
  'TooManyConnections',
  'TlsConnectionError',
  'DatabaseDoesNotExist',
  'DatabaseAccessDenied',
  'AuthenticationFailed',
]);

/** Prisma error codes for connection failures (P1xxx are connection/initialisation errors). */
const PRISMA_CONNECTION_CODE = /^P1\d{3}$/;

const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EPIPE',
  'EHOSTUNREACH',
  'ECONNABORTED',
]);

/** SQLSTATE: class 08 connection exception; server shutting down or starting; too many connections. */
const isConnectionSqlState = (code: string) =>
  code.startsWith('08') ||
  code === '57P01' ||
  code === '57P02' ||
  code === '57P03' ||
  code === '53300';

/** pg raises these without a code when a connection cannot be made or is lost. */
const PG_CONNECTION_MESSAGE = /^(Connection terminated|timeout exceeded when trying to connect)/;

interface DriverCause {
  kind?: string;
  code?: string;
  originalCode?: string;
}

function prismaDriverCause(error: object): DriverCause | undefined {
  const meta = (error as { meta?: { driverAdapterError?: { cause?: DriverCause } } }).meta;
  return meta?.driverAdapterError?.cause;
}

export function isQueryTimeout(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  if ((error as { code?: unknown }).code === QUERY_CANCELED) return true;
  const cause = prismaDriverCause(error);
  return cause?.originalCode === QUERY_CANCELED || cause?.code === QUERY_CANCELED;
}

function hasUnstorableText(error: object): boolean {
  const code = (error as { code?: unknown }).code;
  const cause = prismaDriverCause(error);
  return [code, cause?.originalCode, cause?.code].some(
    (c) => typeof c === 'string' && UNSTORABLE_TEXT.has(c),
  );
}

/** Whether one error object (not its causes) says the connection failed. */
function saysConnectionFailed(error: object): boolean {
  const { code, name, message } = error as { code?: unknown; name?: unknown; message?: unknown };
  if (name === 'PrismaClientInitializationError') return true;
  if (typeof code === 'string') {
    if (SOCKET_CODES.has(code) || isConnectionSqlState(code) || PRISMA_CONNECTION_CODE.test(code))
      return true;
  }
  const cause = prismaDriverCause(error);
  if (cause?.kind && PRISMA_CONNECTION_KINDS.has(cause.kind)) return true;
  // Prisma's adapter keeps the server's SQLSTATE as originalCode (57P03 while the server starts up: kind "postgres")
  if (
    [cause?.originalCode, cause?.code].some(
      (c) => typeof c === 'string' && (isConnectionSqlState(c) || SOCKET_CODES.has(c)),
    )
  )
    return true;
  return typeof message === 'string' && PG_CONNECTION_MESSAGE.test(message);
}

/** A connection-level failure, found on the error or on any error it wraps (`cause`, a GraphQL error's originalError). */
export function isConnectionFailure(error: unknown): boolean {
  for (
    let current = error, depth = 0;
    typeof current === 'object' && current !== null && depth < 5;
    depth++
  ) {
    if (saysConnectionFailed(current)) return true;
    const wrapper = current as { cause?: unknown; originalError?: unknown };
    current = wrapper.cause ?? wrapper.originalError;
  }
  return false;
}

/** An outage, not a fault of ours: logged as a warning without a stack. */
export const isDatabaseUnavailable = (error: ApiError): boolean =>
  error.details?.reason === 'database_unavailable';

/** The contract error for a database failure, or undefined when the error is not one we classify. */
export function mapDatabaseError(error: unknown): ApiError | undefined {
  if (error instanceof ApiError) return error;
  if (isQueryTimeout(error)) {
    return new ApiError(
      'query_timeout',
      'The backing query took too long and was cancelled. Narrow the filters or retry later.',
    );
  }
  if (typeof error === 'object' && error !== null && hasUnstorableText(error)) {
    return new ApiError(
      'bad_request',
      'A text parameter contains a NUL character (U+0000), which the service cannot store or search.',
      {
        parameter: 'request',
        rule: 'text must not contain NUL characters',
      },
    );
  }
  if (isConnectionFailure(error)) {
    return reasonError(
      'database_unavailable',
      'The data store is temporarily unavailable (restarting or unreachable). Retry after Retry-After seconds.',
      {},
      DATABASE_RETRY_AFTER_S,
    );
  }
  return undefined;
}
