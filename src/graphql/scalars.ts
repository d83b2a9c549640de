// DateTime: an ISO 8601 UTC timestamp string. Date: a calendar day 'YYYY-MM-DD' (days, months).
// JSON: any JSON value, sent as itself (an object stays an object, not JSON text in a string).
import { builder } from './builder.ts';
import { badRequest } from '../platform/errors.ts';

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

function toDate(value: Date | string, what: string): Date {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime()))
    throw new TypeError(`${what} cannot serialise ${String(value)}`);
  return date;
}

export const DAY_RULE = 'must be a date written YYYY-MM-DD, from 0001-01-01 to 9999-12-31';

/** 'YYYY-MM-DD' as midnight UTC; null for impossible days (2024-02-30) and year 0, which no calendar of ours has. */
export function dayOf(value: unknown): Date | null {
  const match = typeof value === 'string' ? DAY.exec(value) : null;
  if (!match || Number(match[1]) < 1) return null;
  const date = new Date(0);
  // setUTCFullYear, unlike Date.UTC, keeps the years 1 to 99 instead of mapping them to 1901-1999
  date.setUTCFullYear(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  return date.toISOString().slice(0, 10) === value ? date : null;
}

/** Parses 'YYYY-MM-DD' as midnight UTC. The scalar cannot know its argument's name: REST checks first, naming it. */
export function parseDay(value: unknown): Date {
  const date = dayOf(value);
  if (!date) throw badRequest(`Invalid date: ${DAY_RULE}`, { parameter: 'date', rule: DAY_RULE });
  return date;
}

/** A day as 'YYYY-MM-DD'; a day read as JSON text (a carried traffic month) is written so already. */
export const formatDay = (value: Date | string): string =>
  typeof value === 'string' && DAY.test(value)
    ? value
    : toDate(value, 'Date').toISOString().slice(0, 10);

builder.scalarType('DateTime', {
  description: 'A point in time, ISO 8601 in UTC, e.g. 2026-01-31T12:00:00.000Z.',
  serialize: (value) => toDate(value, 'DateTime').toISOString(),
  parseValue: (value) => {
    const date = typeof value === 'string' ? new Date(value) : null;
    if (!date || Number.isNaN(date.getTime())) {
      throw badRequest('Invalid DateTime: expected ISO 8601', {
        parameter: 'datetime',
        rule: 'ISO 8601 date-time',
      });
    }
    return date;
  },
});

builder.scalarType('Date', {
  description: "A calendar day 'YYYY-MM-DD' (UTC).",
  serialize: formatDay,
  parseValue: parseDay,
});

builder.scalarType('JSON', {
  description:
    'Any JSON value (object, array, string, number, boolean or null), sent as JSON itself, not as text. Its shape is described by the field that has it.',
  serialize: (value) => value,
  parseValue: (value) => value,
});
