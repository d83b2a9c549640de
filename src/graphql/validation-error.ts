// How a failed argument validation reaches a caller: ApiError('bad_request') whose details name the
// argument as the caller wrote it (first, after, filter.minVisits → minVisits) and the rule that
// failed. REST names its page parameters limit and offset; rest/graphql-errors.ts renames them.
import type { ZodError } from 'zod';
import { ApiError } from '../platform/errors.ts';

/** The innermost named path segment: filter.minVisits → minVisits, domains[3] → domains. */
function parameterOf(path: readonly PropertyKey[]): string {
  const named = path.filter((segment): segment is string => typeof segment === 'string');
  return named[named.length - 1] ?? 'arguments';
}

export function apiErrorFromZod(error: ZodError | Error): ApiError {
  if (error instanceof ApiError) return error;
  const issue = (error as ZodError).issues?.[0];
  if (!issue)
    return new ApiError('bad_request', error.message, {
      parameter: 'arguments',
      rule: error.message,
    });
  const parameter = parameterOf(issue.path);
  return new ApiError('bad_request', `Invalid ${parameter}: ${issue.message}`, {
    parameter,
    rule: issue.message,
  });
}
