// node(id)/nodes(ids) answer null for an id they cannot show, as Pothos does for an unknown one:
// a lookup that would answer not_found at its root field is null here, with the same access rules.
import { ApiError } from '../platform/errors.ts';

/** The lookup's record, or null when it answered not_found (missing, or another account's). */
export async function orNullIfNotFound<T>(lookup: Promise<T>): Promise<T | null> {
  try {
    return await lookup;
  } catch (error) {
    if (error instanceof ApiError && error.code === 'not_found') return null;
    throw error;
  }
}
