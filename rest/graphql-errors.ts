// GraphQL errors -> the one ApiError the REST envelope renders. The pipeline's error masking has
// already run (src/gateway/errors.ts): a resolver's ApiError arrives whole, a database timeout or
// outage arrives as query_timeout or internal with its reason, and a fault of ours arrives masked
// as internal, already logged. Anything else without a contract code is a fault too: it is logged
// and the caller gets a generic internal error (never a message or a stack from inside).
import type { GraphQLError } from 'graphql';
import { ApiError, isErrorCode } from '../src/platform/errors.ts';
import type { Logger } from '../src/platform/logger.ts';

/** GraphQL's page arguments under their REST names (a route maps limit → first and offset → after). */
const REST_PARAMETER: Record<string, string> = { first: 'limit', after: 'offset' };

/** An argument error about `first` or `after`, told in the REST parameter the caller sent. */
function inRestTerms(
  message: string,
  details: Record<string, unknown> | null,
): [string, Record<string, unknown> | null] {
  const parameter = typeof details?.parameter === 'string' ? details.parameter : undefined;
  const rest = parameter && REST_PARAMETER[parameter];
  if (!rest) return [message, details];
  const rule = typeof details?.rule === 'string' ? { rule: restWords(details.rule) } : {};
  return [
    restWords(message.replace(`Invalid ${parameter}:`, `Invalid ${rest}:`)),
    { ...details, parameter: rest, ...rule },
  ];
}

/** The result window's rule in REST's words: the position after `after` is offset, `first` is limit. */
const restWords = (text: string) =>
  text.replace('the position after `after` + `first`', 'offset + limit');

export function toApiError(
  errors: readonly GraphQLError[],
  logger: Logger,
  operationName: string,
): ApiError {
  const first = errors[0];
  const original = first?.originalError;
  if (
    original instanceof ApiError &&
    !Object.hasOwn(REST_PARAMETER, String(original.details?.parameter))
  )
    return original;
  const code = first?.extensions?.code;
  if (first && isErrorCode(code)) {
    const [message, details] = inRestTerms(
      first.message,
      (first.extensions.details ?? null) as Record<string, unknown> | null,
    );
    const retryAfter = first.extensions.retryAfter;
    return new ApiError(
      code,
      message,
      details,
      typeof retryAfter === 'number' ? retryAfter : undefined,
    );
  }
  logger.error(
    { err: first?.originalError ?? first, errors, operationName },
    'REST operation failed',
  );
  return new ApiError('internal', 'Internal server error.');
}
