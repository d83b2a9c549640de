// GraphQL errors -> the one ApiError the REST envelope renders. Resolvers throw ApiError with a
// contract code; anything without such a code is a fault of ours: it is logged in full and the
// caller gets a generic internal error (never a message or a stack from inside).
import type { GraphQLError } from 'graphql';
import { mapDatabaseError } from '../src/platform/database/database-errors.ts';
import { ApiError, isErrorCode } from '../src/platform/errors.ts';
import type { Logger } from '../src/platform/logger.ts';

export function toApiError(errors: readonly GraphQLError[], logger: Logger, operationName: string): ApiError {
  const first = errors[0];
  // a statement timeout is query_timeout and a lost database connection a clean internal error
  const database = mapDatabaseError(first?.originalError);
  if (database) return database;
  const code = first?.extensions?.code;
  if (first && isErrorCode(code) && code !== 'internal') {
    const details = (first.extensions.details ?? null) as Record<string, unknown> | null;
    const retryAfter = first.extensions.retryAfter;
    return new ApiError(code, first.message, details, typeof retryAfter === 'number' ? retryAfter : undefined);
  }
  logger.error({ err: first?.originalError ?? first, errors, operationName }, 'REST operation failed');
  return new ApiError('internal', 'Internal server error.');
}
