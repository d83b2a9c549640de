// An alert's filter as stored: the StoreFilter values GraphQL parsed (the same input GET /v1/stores
// passes), kept as JSON with dates as ISO strings, and read back into the values the store filter's
// SQL builder takes. Whatever field StoreFilter gains works in alerts without a change here.
import type { StoreFilterValues } from '../stores/store-filter.ts';

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

/** The given fields only (nulls dropped), as JSON-ready values. */
export function storedFilter(filter: StoreFilterValues): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(filter)
      .filter(([, value]) => value !== null && value !== undefined)
      .map(([name, value]) => [name, value instanceof Date ? value.toISOString() : value]),
  );
}

/** The stored JSON back as filter values: ISO timestamps become Dates again (the Date scalar's values). */
export function filterValues(stored: unknown): StoreFilterValues {
  return Object.fromEntries(
    Object.entries((stored ?? {}) as Record<string, unknown>).map(([name, value]) => [
      name,
      typeof value === 'string' && ISO_TIME.test(value) ? new Date(value) : value,
    ]),
  ) as StoreFilterValues;
}
