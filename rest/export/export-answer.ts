// Exports of an answer that is not a paged list (a route's `answerExport`, e.g. POST
// /v1/stores/lookup): the route runs once, as for JSON, and its rows are written whole as CSV or
// NDJSON, with the same headers and end marker as a list's export (export-list.ts).
import type { FastifyReply } from 'fastify';
import type { RestRoute } from '../route.ts';
import { csvColumns, csvLine, csvRow } from './csv.ts';
import type { ExportMediaType } from './export-format.ts';
import { EXPORT_HEADERS, endMarker } from './export-list.ts';

export function sendAnswerExport(
  type: ExportMediaType,
  route: RestRoute,
  body: unknown,
  params: Record<string, unknown>,
  reply: FastifyReply,
): FastifyReply {
  const { row, rows: rowsOf } = route.answerExport!;
  const rows = rowsOf(body, params);
  const summary = { total: rows.length, rows: rows.length, complete: true };
  let text: string;
  if (type === 'text/csv') {
    const columns = csvColumns(row);
    text = csvLine(columns) + rows.map((item) => csvRow(columns, item)).join('');
  } else {
    text = rows.map((item) => `${JSON.stringify(item)}\n`).join('');
  }
  const extension = type === 'text/csv' ? 'csv' : 'ndjson';
  return reply
    .status(200)
    .type(type === 'text/csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8')
    .header('content-disposition', `attachment; filename="${route.operationId}.${extension}"`)
    .header(EXPORT_HEADERS.total, String(summary.total))
    .header(EXPORT_HEADERS.rows, String(summary.rows))
    .header(EXPORT_HEADERS.complete, String(summary.complete))
    .send(text + endMarker(type, summary));
}
