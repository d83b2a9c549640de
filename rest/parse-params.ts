// Parameters are parsed once, at the edge, by the route's zod schemas. The first problem found
// becomes a bad_request whose details name the parameter and the rule it broke.
import type { z } from 'zod';
import { ApiError } from '../src/platform/errors.ts';
import type { RestRoute } from './route.ts';

/** `querySchema`: the route's query parameters, or REST's wider set (an exportable list's `format`). */
export function parseParams(
  route: RestRoute,
  pathParams: unknown,
  query: unknown,
  querySchema: z.ZodObject = route.query,
): Record<string, unknown> {
  const rawQuery = (query ?? {}) as Record<string, unknown>;
  for (const [name, value] of Object.entries(rawQuery)) {
    if (Array.isArray(value)) throw invalid(name, 'must be given once');
  }
  const path = route.pathParams.safeParse(pathParams ?? {});
  if (!path.success)
    throw fromIssue(path.error.issues[0], route.pathParams, pathParams as Record<string, unknown>);
  const parsedQuery = querySchema.safeParse(rawQuery);
  if (!parsedQuery.success) throw fromIssue(parsedQuery.error.issues[0], querySchema, rawQuery);
  return { ...path.data, ...parsedQuery.data };
}

/** A POST route's JSON body, parsed by its zod schema; problems name the body field and the rule. */
export function parseBody(route: RestRoute, body: unknown): Record<string, unknown> {
  if (!route.body) return {};
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new ApiError('bad_request', 'The request body must be a JSON object.', {
      parameter: 'body',
      rule: 'must be a JSON object',
    });
  }
  const parsed = route.body.safeParse(body);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  if (issue?.code === 'unrecognized_keys') {
    const rule = `unknown field; the body accepts: ${Object.keys(route.body.shape).join(', ')}`;
    return invalidBody(issue.keys[0] ?? 'body', rule);
  }
  // a field of an object field is named by both (filter.minVisits); list items by the list alone
  const [field, inner] = issue?.path ?? [];
  const parameter =
    typeof inner === 'string' ? `${String(field)}.${inner}` : String(field ?? 'body');
  const rule = issue?.message ?? 'is invalid';
  return invalidBody(
    parameter,
    (body as Record<string, unknown>)[parameter] === undefined && issue?.path.length === 1
      ? `is required: ${rule}`
      : rule,
  );
}

function invalidBody(parameter: string, rule: string): never {
  throw invalid(parameter, rule);
}

function fromIssue(
  issue: z.core.$ZodIssue | undefined,
  querySchema: z.ZodObject,
  raw: Record<string, unknown>,
): ApiError {
  if (issue?.code === 'unrecognized_keys') {
    const accepted = Object.keys(querySchema.shape);
    const rule = accepted.length
      ? `unknown parameter; this route accepts: ${accepted.join(', ')}`
      : 'unknown parameter; this route takes no query parameters';
    // details name the first; the message names them all
    const [first = 'query'] = issue.keys;
    return new ApiError(
      'bad_request',
      `Unknown query parameter ${issue.keys.join(', ')}: ${rule}`,
      { parameter: first, rule },
    );
  }
  const parameter = String(issue?.path[0] ?? 'request');
  const rule = issue?.message ?? 'is invalid';
  return invalid(
    parameter,
    raw[parameter] === undefined && issue?.path.length === 1 ? `is required: ${rule}` : rule,
  );
}

function invalid(parameter: string, rule: string): ApiError {
  // the same wording as the GraphQL layer's argument errors (src/graphql/validation-error.ts)
  return new ApiError('bad_request', `Invalid ${parameter}: ${rule}`, { parameter, rule });
}
