// Store.observation: how the living catalog sees a store (src/storefront/observation-policy.ts):
// present, failing, or vanished (left out of search results), when it was last observed and when
// it is next. Null for a store the crawler never visits (the synthetic demo catalog).
import DataLoader from 'dataloader';
import { builder } from '../graphql/builder.ts';
import { upperCaseValues } from '../graphql/enums.ts';
import { defineLoader } from '../graphql/context.ts';
import { keyedRead, queryByKeys } from '../platform/database/sql.ts';
import { StoreRef } from '../stores/store.ref.ts';
import { extendStoreRead } from '../stores/store.loaders.ts';

export interface StoreObservationRecord {
  storeId: number;
  presence: 'active' | 'failing' | 'vanished';
  presenceSince: Date;
  lastObservedAt: Date | null;
  nextObservationAt: Date;
  intervalHours: number;
  changeRate: number;
  consecutiveFailures: number;
  failureKind: string | null;
  failureReason: string | null;
  movedTo: string | null;
}

const OBSERVATION_COLUMNS = `store_id AS "storeId", presence::text AS presence, presence_since AS "presenceSince",
  last_observed_at AS "lastObservedAt", next_at AS "nextObservationAt", interval_hours AS "intervalHours",
  change_rate AS "changeRate", consecutive_failures AS "consecutiveFailures", failure_kind AS "failureKind",
  failure_reason AS "failureReason", moved_to AS "movedTo"`;

const OBSERVATION_BY_STORE = keyedRead(
  'store_id',
  'int',
  (keys) => `SELECT ${OBSERVATION_COLUMNS} FROM observation_schedule WHERE ${keys}`,
);

const observationByStoreId = defineLoader(
  (ctx) =>
    new DataLoader<number, StoreObservationRecord | null>(async (ids) => {
      const rows = await queryByKeys<StoreObservationRecord>(
        ctx.services.db.read,
        OBSERVATION_BY_STORE,
        ids,
        'observation-by-store',
      );
      const byId = new Map(rows.map((row) => [row.storeId, row]));
      return ids.map((id) => byId.get(id) ?? null);
    }),
);

/** The schedule row as the store read's JSON column carries it: timestamps as ISO text. */
type ObservationJson = Omit<
  StoreObservationRecord,
  'presenceSince' | 'lastObservedAt' | 'nextObservationAt'
> & {
  presenceSince: string;
  lastObservedAt: string | null;
  nextObservationAt: string;
};

// a profile asking for the observation gets it in the store's own statement, not a second one
extendStoreRead({
  field: 'observation',
  expression: `(SELECT row_to_json(o) FROM (SELECT ${OBSERVATION_COLUMNS} FROM observation_schedule WHERE store_id = s.id) o)`,
  prime: (ctx, storeId, value) => {
    const json = value as ObservationJson | null;
    observationByStoreId(ctx).prime(
      storeId,
      json && {
        ...json,
        presenceSince: new Date(json.presenceSince),
        lastObservedAt: json.lastObservedAt === null ? null : new Date(json.lastObservedAt),
        nextObservationAt: new Date(json.nextObservationAt),
      },
    );
  },
});

const PresenceEnum = builder.enumType('StorePresence', {
  description:
    'ACTIVE: the last observation read the storefront. FAILING: the last observations failed; still listed. ' +
    'VANISHED: the storefront is gone (several observations in a row), so the store is left out of search results and grouped rows; it stays readable here and is looked at again weekly.',
  values: upperCaseValues(['active', 'failing', 'vanished'], {
    active: 'The last observation read the storefront.',
    failing: 'The last observations failed; the store is still listed.',
    vanished: 'The storefront is gone: left out of search results, looked at again weekly.',
  }),
});

const StoreObservation = builder.objectRef<StoreObservationRecord>('StoreObservation').implement({
  description: "The crawler's view of a store: its presence, and when it was and will be observed.",
  fields: (t) => ({
    presence: t.field({
      type: PresenceEnum,
      description: 'Whether the storefront is there: active, failing or vanished.',
      resolve: (o) => o.presence,
    }),
    presenceSince: t.expose('presenceSince', {
      type: 'DateTime',
      description: 'Since when the store has had this presence.',
    }),
    lastObservedAt: t.expose('lastObservedAt', {
      type: 'DateTime',
      nullable: true,
      description: 'The last observation that read the storefront.',
    }),
    nextObservationAt: t.expose('nextObservationAt', {
      type: 'DateTime',
      description: 'When the scheduler next observes the store.',
    }),
    intervalHours: t.exposeFloat('intervalHours', {
      description: 'Hours between observations, by popularity and how often the store changes.',
    }),
    changeRate: t.exposeFloat('changeRate', {
      description: 'Moving average, 0 to 1, of how often an observation found a change.',
    }),
    consecutiveFailures: t.exposeInt('consecutiveFailures', {
      description:
        'Failed observations since the last good one; 0 when the last one read the storefront.',
    }),
    failureKind: t.exposeString('failureKind', {
      nullable: true,
      description:
        'Why the last observation failed, e.g. not_found, unresolvable, moved, rate_limited.',
    }),
    failureReason: t.exposeString('failureReason', {
      nullable: true,
      description:
        "The last failure's message in English, for display; null after a good observation.",
    }),
    movedTo: t.exposeString('movedTo', {
      nullable: true,
      description: 'The host the storefront now redirects to, when it moved.',
    }),
  }),
});

builder.objectField(StoreRef, 'observation', (t) =>
  t.field({
    type: StoreObservation,
    nullable: true,
    description:
      'How the crawler sees the store; null for a store it never visits (the synthetic demo catalog).',
    resolve: (store, _args, ctx) => observationByStoreId(ctx).load(store.id),
  }),
);
