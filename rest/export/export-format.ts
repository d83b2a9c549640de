// Which answer a list request gets: JSON, or an export (CSV, NDJSON). An explicit `format=` wins;
// otherwise the Accept header decides by RFC 9110 content negotiation (q-values, then specificity,
// then the caller's order), with JSON preferred on a tie: `*/*`, a JSON-first list or an Accept
// that names none of ours gets JSON.
import Negotiator from 'negotiator';
import type { z } from 'zod';
import { enumParam } from '../params.ts';
import type { RestRoute } from '../route.ts';

export const EXPORT_MEDIA_TYPES = ['text/csv', 'application/x-ndjson'] as const;
export type ExportMediaType = (typeof EXPORT_MEDIA_TYPES)[number];

/** JSON first: the answer on a tie */
const OFFERED = ['application/json', ...EXPORT_MEDIA_TYPES];
const FORMATS = { json: undefined, csv: 'text/csv', ndjson: 'application/x-ndjson' } as const;

export const FORMAT_DESCRIPTION =
  'Answer format: json (the default), csv or ndjson (an export of the list). Overrides the Accept header; ' +
  'without it, `Accept: text/csv` or `Accept: application/x-ndjson` asks for an export.';

/** The query parameter an exportable list adds to its own. */
const formatParam = {
  format: enumParam(['json', 'csv', 'ndjson'])
    .optional()
    .meta({ description: FORMAT_DESCRIPTION, example: 'csv' }),
};

/** The query parameters a caller may send the route: an exportable list's (or answer's) take `format` too. */
export const callerQueryOf = (route: RestRoute): z.ZodObject =>
  route.exportable || route.answerExport ? route.query.safeExtend(formatParam) : route.query;

/** The export this request asks for, or undefined for JSON. */
export function exportTypeOf(
  format: unknown,
  accept: string | undefined,
): ExportMediaType | undefined {
  if (typeof format === 'string' && format in FORMATS)
    return FORMATS[format as keyof typeof FORMATS];
  if (accept === undefined) return undefined;
  const chosen = new Negotiator({ headers: { accept } }).mediaType(OFFERED);
  return EXPORT_MEDIA_TYPES.find((type) => type === chosen);
}
