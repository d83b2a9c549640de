// orderBy {field, direction}: the one shape of a list's order argument. A list declares its
// fields; each field's SQL order is written for DESC and ASC flips every term of it, ties included,
// so an index serving one direction serves the other scanned backwards.
import { badRequest } from '../platform/errors.ts';
import { builder } from './builder.ts';

export const ORDER_DIRECTIONS = ['asc', 'desc'] as const;
export type OrderDirection = (typeof ORDER_DIRECTIONS)[number];

export const OrderDirectionEnum = builder.enumType('OrderDirection', {
  description:
    'The direction of an orderBy: ASC (smallest, oldest first) or DESC (largest, newest first).',
  values: {
    ASC: { value: 'asc', description: 'Smallest, oldest or lowest first.' },
    DESC: { value: 'desc', description: 'Largest, newest or highest first.' },
  } as const,
});

/** An ORDER BY written for DESC ("a DESC, b, c DESC"), in `direction`: ASC flips each term. */
export function orderSql(descending: string, direction: OrderDirection): string {
  if (direction === 'desc') return descending;
  return descending
    .split(',')
    .map((term) => {
      const trimmed = term.trim();
      if (/ DESC$/i.test(trimmed)) return trimmed.replace(/ DESC$/i, ' ASC');
      return `${trimmed.replace(/ ASC$/i, '')} DESC`;
    })
    .join(', ');
}

/** Relevance has one direction (best match first): ASC is refused as the orderBy.direction it is. */
export function assertRelevanceDirection(direction: OrderDirection): void {
  if (direction === 'asc') {
    const rule = 'RELEVANCE orders DESC only';
    throw badRequest(`Invalid orderBy: ${rule}`, { parameter: 'orderBy.direction', rule });
  }
}
