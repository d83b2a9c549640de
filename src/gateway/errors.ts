// What a failed field looks like to a caller. ApiError keeps its message and extensions
// (code, details); a database timeout becomes query_timeout; GraphQL's own request errors
// (syntax, validation, variable coercion) pass unchanged, and callerFacingErrorsPlugin gives them
// bad_request in the answer; anything else is logged and masked as `internal` — never a stack
// trace or a driver message.
import { GraphQLError, type ExecutionResult } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { mapDatabaseError } from '../platform/database/database-errors.ts';
import { redactApiKeys } from '../access/key-format.ts';
import { ApiError, isErrorCode } from '../platform/errors.ts';
import { PERSISTED_QUERY_NOT_FOUND } from './automatic-persisted-queries.ts';
import type { Logger } from '../platform/logger.ts';

const located = (error: unknown) =>
  error instanceof GraphQLError ? { nodes: error.nodes, path: error.path } : {};

export function createErrorMasker(logger: Logger) {
  return (error: unknown): Error => {
    const original =
      error instanceof GraphQLError && error.originalError ? error.originalError : error;
    const mapped = mapDatabaseError(original);
    if (mapped) {
      return new GraphQLError(mapped.message, { ...located(error), extensions: mapped.extensions });
    }
    if (original instanceof GraphQLError) return error as GraphQLError;
    logger.error({ err: original }, 'GraphQL resolver failed');
    const internal = new ApiError('internal', 'Internal server error.');
    return new GraphQLError(internal.message, {
      ...located(error),
      extensions: internal.extensions,
    });
  };
}

/**
 * The error as a caller sees it: with a contract code (GraphQL's own request errors and armor's
 * limits carry none; they are the caller's mistakes, so bad_request) and without anything shaped
 * like an API key (a key pasted into a variable must not come back in a message). The one other code
 * kept is PERSISTED_QUERY_NOT_FOUND, which persisted-query clients retry on.
 */
export function callerFacing(error: GraphQLError): GraphQLError {
  const { nodes, source, positions, path, originalError } = error;
  const kept =
    isErrorCode(error.extensions?.code) || error.extensions?.code === PERSISTED_QUERY_NOT_FOUND;
  const code = kept ? {} : { code: 'bad_request', details: null };
  const extensions = redactApiKeys({ ...error.extensions, ...code });
  return new GraphQLError(redactApiKeys(error.message), {
    nodes,
    source,
    positions,
    path,
    originalError,
    extensions,
  });
}

/** An error sent over a WebSocket: caller-facing, without the HTTP status an HTTP answer turns into its own status. */
export function socketFacing(error: GraphQLError): GraphQLError {
  const facing = callerFacing(error);
  if (!facing.extensions.http) return facing;
  const { http: _http, ...extensions } = facing.extensions;
  const { nodes, source, positions, path, originalError } = facing;
  return new GraphQLError(facing.message, {
    nodes,
    source,
    positions,
    path,
    originalError,
    extensions,
  });
}

/** The result with each of its errors caller-facing (the JSON lane applies it where Yoga's onResultProcess hook would). */
export const callerFacingResult = (result: ExecutionResult): ExecutionResult =>
  result.errors?.length ? { ...result, errors: result.errors.map(callerFacing) } : result;

/** Applies callerFacing to every error of an HTTP answer; on the result, after masking, so request errors are not logged as failures. */
export function callerFacingErrorsPlugin(): Plugin {
  return {
    onResultProcess({ result, setResult }) {
      if (Symbol.asyncIterator in result) return; // streamed results: their errors come from execution, masked above
      setResult(
        Array.isArray(result)
          ? result.map(callerFacingResult)
          : callerFacingResult(result as ExecutionResult),
      );
    },
  };
}
