// Exports of list routes: the store and product lists answer text/csv or application/x-ndjson when
// the Accept header asks for one. The export walks the list in pages (`limit` per page, 100 when not
// given), each page run through runRoute exactly as GET ?limit=&offset= would run (the same
// operation, charged as one list call, within the plan's result window), and streams each page as
// it arrives. The first page runs before anything is sent, so a refused export is an ordinary
// error answer; a page refused later (the daily bucket used up) ends the stream early: NDJSON's
// last line is then the error envelope, a CSV transfer is cut off (incomplete, never silently short).
import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { ErrorEnvelope } from '../../src/http/error-envelope.ts';
import { ApiError } from '../../src/platform/errors.ts';
import { MAX_LIMIT } from '../params.ts';
import type { RestRoute } from '../route.ts';
import type { RunRoute } from '../run-route.ts';
import { csvColumns, csvLine, csvRow } from './csv.ts';

export const EXPORT_MEDIA_TYPES = ['text/csv', 'application/x-ndjson'] as const;
export type ExportMediaType = (typeof EXPORT_MEDIA_TYPES)[number];

/** The export the Accept header asks for (the first of ours it lists), or undefined for JSON. */
export function exportTypeOf(accept: string | undefined): ExportMediaType | undefined {
  for (const range of (accept ?? '').split(',')) {
    const type = range.split(';')[0]!.trim().toLowerCase();
    const match = EXPORT_MEDIA_TYPES.find((media) => media === type);
    if (match) return match;
  }
  return undefined;
}

interface ListBody {
  data: unknown[];
  page: { limit: number; offset: number; count: number; hasMore: boolean; total: number };
}

/** The schema of one item of the route's list envelope (of the union member this answer is). */
function itemSchemaOf(route: RestRoute, body: ListBody): z.ZodType {
  const options = route.response instanceof z.ZodUnion ? (route.response.options as z.ZodType[]) : [route.response];
  const envelope = options.find((option) => option.safeParse(body).success) ?? options[0]!;
  const data = (envelope as z.ZodObject).shape.data as z.ZodArray;
  return data.element as z.ZodType;
}

const envelopeOf = (error: ApiError): ErrorEnvelope => ({ error: { code: error.code, message: error.message, details: error.details ?? null } });

export async function sendExport(
  type: ExportMediaType,
  route: RestRoute,
  params: Record<string, unknown>,
  request: FastifyRequest,
  reply: FastifyReply,
  runRoute: RunRoute,
  /** the caller's plan's result window: offset + limit never passes it */
  window: number,
): Promise<FastifyReply> {
  const givenLimit = (request.query as Record<string, unknown> | undefined)?.limit !== undefined;
  const pageSize = givenLimit ? Number(params.limit) : MAX_LIMIT;
  const firstOffset = Number(params.offset);
  const page = async (offset: number) =>
    // the last page shrinks to end at the window; an offset already past it is refused as GET would be
    (await runRoute(route, { ...params, offset, limit: Math.max(1, Math.min(pageSize, window - offset)) }, { req: request, reply })).body as ListBody;

  // before any byte is sent: a refusal here is the route's usual error answer
  const first = await page(firstOffset);
  const columns = csvColumns(itemSchemaOf(route, first));
  const format = (items: unknown[]) =>
    type === 'text/csv' ? items.map((item) => csvRow(columns, item)).join('') : items.map((item) => `${JSON.stringify(item)}\n`).join('');

  async function* pages(): AsyncGenerator<string> {
    if (type === 'text/csv') yield csvLine(columns);
    let body = first;
    let offset = firstOffset;
    for (;;) {
      yield format(body.data);
      offset += body.data.length;
      if (!body.page.hasMore || body.data.length === 0 || offset >= window) return;
      try {
        body = await page(offset);
      } catch (error) {
        if (!(error instanceof ApiError) || type === 'text/csv') throw error;
        yield `${JSON.stringify(envelopeOf(error))}\n`;
        return;
      }
    }
  }

  const extension = type === 'text/csv' ? 'csv' : 'ndjson';
  return reply
    .status(200)
    .type(type === 'text/csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8')
    .header('content-disposition', `attachment; filename="${route.operationId}.${extension}"`)
    .send(Readable.from(pages()));
}
