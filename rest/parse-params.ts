// Parameters are parsed once, at the edge, by the route's zod schemas. The first problem found
// becomes a bad_request whose details name the parameter and the rule it broke.
import type { z } from 'zod';
import { CsvBody } from '../src/http/json-body.ts';
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
export function parseBody(route: RestRoute, sent: unknown): Record<string, unknown> {
  if (!route.body) return {};
  const body = sent instanceof CsvBody ? csvBodyOf(route, sent) : sent;
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

/**
 * A text/csv body as the JSON body it stands for: `{[route.csvBody]: [the values of its one column]}`.
 * A first row naming the field (or its singular, `domain` for `domains`) is a header; blank lines are skipped.
 */
function csvBodyOf(route: RestRoute, body: CsvBody): Record<string, unknown> {
  const field = route.csvBody;
  if (!field) {
    throw new ApiError(
      'bad_request',
      'This route takes a JSON body (Content-Type: application/json), not text/csv.',
      { parameter: 'body', rule: 'Content-Type must be application/json' },
    );
  }
  const rows = csvRecords(body.text).filter((row) => row.some((cell) => cell.trim() !== ''));
  const headers = new Set([field, field.replace(/s$/, '')]);
  const first = rows[0]?.map((cell) => cell.trim().toLowerCase());
  const named = first?.findIndex((cell) => headers.has(cell)) ?? -1;
  const values = named >= 0 ? rows.slice(1) : rows;
  const column = Math.max(0, named);
  if (named < 0 && values.some((row) => row.length > 1)) {
    return invalidBody(
      'body',
      `a CSV body is one column of ${field}, or has a header row naming its ${field.replace(/s$/, '')} column`,
    );
  }
  return { [field]: values.map((row) => (row[column] ?? '').trim()) };
}

/** RFC 4180 records: quoted cells may hold commas, quotes ("") and line breaks. */
function csvRecords(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      record.push(cell);
      cell = '';
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && text[i + 1] === '\n') i++;
      record.push(cell);
      records.push(record);
      record = [];
      cell = '';
    } else cell += char;
  }
  if (cell !== '' || record.length > 0) records.push([...record, cell]);
  return records;
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
