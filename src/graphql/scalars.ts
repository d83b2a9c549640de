// DateTime: an ISO 8601 UTC timestamp string. Date: a calendar day 'YYYY-MM-DD' (days, months).
import { builder } from './builder.ts';
import { badRequest } from '../platform/errors.ts';

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

function toDate(value: Date | string, what: string): Date {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) throw new TypeError(`${what} cannot serialise ${String(value)}`);
  return date;
}

/** Parses 'YYYY-MM-DD' as midnight UTC; rejects impossible days such as 2024-02-30. */
export function parseDay(value: unknown): Date {
  const match = typeof value === 'string' ? DAY.exec(value) : null;
  const date = match ? new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]))) : null;
  if (!date || date.toISOString().slice(0, 10) !== value) {
    throw badRequest('Invalid date: expected YYYY-MM-DD', { parameter: 'date', rule: 'format YYYY-MM-DD' });
  }
  return date;
}

export const formatDay = (value: Date | string): string => toDate(value, 'Date').toISOString().slice(0, 10);

builder.scalarType('DateTime', {
  description: 'A point in time, ISO 8601 in UTC, e.g. 2026-01-31T12:00:00.000Z.',
  serialize: (value) => toDate(value, 'DateTime').toISOString(),
  parseValue: (value) => {
    const date = typeof value === 'string' ? new Date(value) : null;
    if (!date || Number.isNaN(date.getTime())) {
      throw badRequest('Invalid DateTime: expected ISO 8601', { parameter: 'datetime', rule: 'ISO 8601 date-time' });
    }
    return date;
  },
});

builder.scalarType('Date', {
  description: "A calendar day 'YYYY-MM-DD' (UTC).",
  serialize: formatDay,
  parseValue: parseDay,
});
