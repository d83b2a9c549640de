// Exports of list routes: CSV or NDJSON when the request asks for one (export-format.ts). The export
// holds the list from `offset` to its end, at most `limit` items when `limit` is given, never past
// the plan's result window. It walks the list in pages of 100, each run through runRoute exactly as
// GET ?limit=100&offset= would run and charged as one list call. The first page runs before
// anything is sent and learns the total; the remaining pages are all charged with the second,
// still before anything is sent, so a refusal is an ordinary error answer and a started export is
// never cut by a quota. The headers state the total and the rows the file holds, and the file ends
// with a marker a parser checks (a transfer cut by a failure lacks it).
import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { MAX_LIMIT } from '../params.ts';
import type { RestRoute } from '../route.ts';
import type { RunRoute } from '../run-route.ts';
import { csvColumns, csvLine, csvRow } from './csv.ts';
import type { ExportMediaType } from './export-format.ts';

export const EXPORT_HEADERS = {
  total: 'X-Export-Total',
  rows: 'X-Export-Rows',
  complete: 'X-Export-Complete',
} as const;

interface ListBody {
  data: unknown[];
  page: { limit: number; offset: number; count: number; hasMore: boolean; total: number };
}

/** What the file holds, stated in the headers and again by its last line. */
export interface ExportSummary {
  /** items in the whole list */
  total: number;
  /** items this file holds */
  rows: number;
  /** whether the file reaches the end of the list (false when `limit` or the plan's result window stopped it) */
  complete: boolean;
}

/** The last line of an export: NDJSON's a JSON object of its own, CSV's a `#` comment line. */
export function endMarker(type: ExportMediaType, summary: ExportSummary): string {
  if (type === 'application/x-ndjson') return `${JSON.stringify({ export: summary })}\n`;
  return `#export rows=${summary.rows} total=${summary.total} complete=${summary.complete}\r\n`;
}

/** The schema of one item of the route's list envelope (of the union member this answer is). */
function itemSchemaOf(route: RestRoute, body: ListBody): z.ZodType {
  const options =
    route.response instanceof z.ZodUnion
      ? (route.response.options as z.ZodType[])
      : [route.response];
  const envelope = options.find((option) => option.safeParse(body).success) ?? options[0]!;
  const data = (envelope as z.ZodObject).shape.data as z.ZodArray;
  return data.element as z.ZodType;
}

export interface ExportOptions {
  /** the caller's plan's result window: offset + limit never passes it */
  window: number;
  /** items per page (each page one list call) */
  pageSize?: number;
}

export async function sendExport(
  type: ExportMediaType,
  route: RestRoute,
  params: Record<string, unknown>,
  request: FastifyRequest,
  reply: FastifyReply,
  runRoute: RunRoute,
  { window, pageSize = MAX_LIMIT }: ExportOptions,
): Promise<FastifyReply> {
  const givenLimit = (request.query as Record<string, unknown> | undefined)?.limit !== undefined;
  const offset = Number(params.offset);
  // the last item the export may hold: `limit` items on, or the end of the result window
  const end = Math.min(window, givenLimit ? offset + Number(params.limit) : Infinity);
  const page = async (from: number, listCalls?: number) => {
    // an offset already past the window still runs (limit 1): it is refused as GET would refuse it
    const limit = Math.max(1, Math.min(pageSize, end - from));
    const context = {
      principal: request.principal,
      req: request,
      reply,
      ...(listCalls === undefined ? {} : { listCalls }),
    };
    return (await runRoute(route, { ...params, offset: from, limit }, context)).body as ListBody;
  };

  const first = await page(offset);
  const last = Math.min(end, first.page.total);
  const rows = Math.max(0, last - offset);
  const summary: ExportSummary = {
    total: first.page.total,
    rows,
    complete: offset + rows >= first.page.total,
  };
  const laterPages = Math.max(0, Math.ceil((rows - first.data.length) / pageSize));
  // every later page is charged now, with the second, before a byte is sent
  const second = laterPages > 0 ? await page(offset + first.data.length, laterPages) : undefined;

  const columns = csvColumns(itemSchemaOf(route, first));
  const format = (items: unknown[]) =>
    type === 'text/csv'
      ? items.map((item) => csvRow(columns, item)).join('')
      : items.map((item) => `${JSON.stringify(item)}\n`).join('');

  async function* lines(): AsyncGenerator<string> {
    if (type === 'text/csv') yield csvLine(columns);
    let written = 0;
    let body: ListBody | undefined = first;
    while (body) {
      const items = body.data.slice(0, rows - written);
      yield format(items);
      written += items.length;
      if (written >= rows || items.length === 0) break;
      // paid above: these pages cost nothing more (a list that shrank meanwhile ends the file early, as its marker says)
      body = body === first ? second : await page(offset + written, 0);
    }
    yield endMarker(type, {
      ...summary,
      rows: written,
      complete: written === rows && summary.complete,
    });
  }

  const extension = type === 'text/csv' ? 'csv' : 'ndjson';
  return reply
    .status(200)
    .type(type === 'text/csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8')
    .header('content-disposition', `attachment; filename="${route.operationId}.${extension}"`)
    .header(EXPORT_HEADERS.total, String(summary.total))
    .header(EXPORT_HEADERS.rows, String(summary.rows))
    .header(EXPORT_HEADERS.complete, String(summary.complete))
    .send(Readable.from(lines()));
}
