// What a failed field looks like to a caller. ApiError keeps its message and extensions
// (code, details); a database timeout becomes query_timeout; GraphQL's own request errors
// (syntax, validation, variable coercion) pass unchanged; anything else is logged and masked as
// `internal` — never a stack trace or a driver message.
import { GraphQLError } from 'graphql';
import { mapDatabaseError } from '../platform/database/database-errors.ts';
import { ApiError } from '../platform/errors.ts';
import type { Logger } from '../platform/logger.ts';

const located = (error: unknown) => (error instanceof GraphQLError ? { nodes: error.nodes, path: error.path } : {});

export function createErrorMasker(logger: Logger) {
  return (error: unknown): Error => {
    const original = error instanceof GraphQLError && error.originalError ? error.originalError : error;
    const mapped = mapDatabaseError(original);
    if (mapped) {
      return new GraphQLError(mapped.message, { ...located(error), extensions: mapped.extensions });
    }
    if (original instanceof GraphQLError) return error as GraphQLError;
    logger.error({ err: original }, 'GraphQL resolver failed');
    const internal = new ApiError('internal', 'Internal server error.');
    return new GraphQLError(internal.message, { ...located(error), extensions: internal.extensions });
  };
}
