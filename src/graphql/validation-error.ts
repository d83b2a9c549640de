// How a failed argument validation reaches a caller: ApiError('bad_request') whose details name the
// parameter by its REST name (so the /v1 adapter can pass GraphQL errors through unchanged) and
// the rule that failed.
import type { ZodError } from 'zod';
import { ApiError } from '../platform/errors.ts';

/** Connection arguments are `limit` and `offset` on the REST side. */
const REST_PARAMETER: Record<string, string> = {
  first: 'limit',
  last: 'limit',
  after: 'offset',
  before: 'offset',
};

/** The innermost named path segment: filter.minVisits → minVisits, domains[3] → domains. */
function parameterOf(path: readonly PropertyKey[]): string {
  const named = path.filter((segment): segment is string => typeof segment === 'string');
  const last = named[named.length - 1] ?? 'arguments';
  return REST_PARAMETER[last] ?? last;
}

export function apiErrorFromZod(error: ZodError | Error): ApiError {
  if (error instanceof ApiError) return error;
  const issue = (error as ZodError).issues?.[0];
  if (!issue) return new ApiError('bad_request', error.message, { parameter: 'arguments', rule: error.message });
  const parameter = parameterOf(issue.path);
  return new ApiError('bad_request', `Invalid ${parameter}: ${issue.message}`, { parameter, rule: issue.message });
}
