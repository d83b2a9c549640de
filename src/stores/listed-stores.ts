// Which stores searches list.
/**
 * Stores the crawler found vanished (src/storefront/observation-policy.ts) leave search results
 * and grouped rows; they stay readable by domain. A handful among a million: an anti-join on a
 * partial index.
 */
export const LISTED_STORE = `NOT EXISTS (SELECT 1 FROM observation_schedule v WHERE v.store_id = s.id AND v.presence = 'vanished')`;

/** FROM ... WHERE of the vanished stores among `conditions` (a counted search takes them off its count). */
export const vanishedAmong = (conditions: readonly string[]): string =>
  `observation_schedule v JOIN stores s ON s.id = v.store_id WHERE ${["v.presence = 'vanished'", ...conditions].join(' AND ')}`;
