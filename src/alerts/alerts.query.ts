// Saved searches that alert, in the GraphQL schema: Query.alerts (the account's alerts), Query.alert
// (one, with its matches), Mutation.createAlert and deleteAlert. No daily bucket: like Signals, only
// the key's per-minute rate and per-key daily ceiling apply.
import { builder } from '../graphql/builder.ts';
import { pageArgs } from '../graphql/page-args.ts';
import { offsetConnection } from '../graphql/pagination.ts';
import { StoreFilter } from '../stores/store-filter.ts';
import {
  alertsByIds,
  countAlerts,
  createAlert,
  deleteAlert,
  findAlert,
  listAlerts,
  listMatches,
  MAX_ALERT_NAME,
  type AlertMatchRecord,
  type AlertRecord,
} from './alerts.ts';

const AlertMatchRef = builder.objectRef<AlertMatchRecord>('AlertMatch').implement({
  description: "A store that newly matched an alert's filter; one per alert and store.",
  fields: (t) => ({
    domain: t.exposeString('domain', { description: "The store's canonical domain." }),
    matchedAt: t.expose('matchedAt', {
      type: 'DateTime',
      description: 'When the observation that made the store match was made.',
    }),
  }),
});

const AlertMatchConnection = builder.connectionObject(
  {
    type: AlertMatchRef,
    name: 'AlertMatchConnection',
    description: "A page of an alert's matches, newest first.",
  },
  { name: 'AlertMatchEdge', description: 'One match, with its cursor.' },
);

const AlertRef = builder.objectRef<AlertRecord>('Alert');

builder.node(AlertRef, {
  description:
    "A saved search that alerts, scoped to the key's account: a store filter and the stores that newly matched it.",
  id: { resolve: (a) => a.id, parse: (id) => Number(id) },
  // as Query.alert: the key's own account's alerts
  loadMany: (ids, ctx) => alertsByIds(ctx, ids),
  fields: (t) => ({
    alertId: t.exposeInt('id', {
      description:
        "The alert's own number: what Query.alert, Mutation.deleteAlert and REST /v1/alerts/{id} take (id is the global Node id).",
    }),
    name: t.exposeString('name', { description: 'The name given at creation.' }),
    filter: t.field({
      type: 'JSON',
      description:
        'The filter: a JSON object of the StoreFilter fields given (dates as ISO 8601 timestamps at midnight UTC).',
      resolve: (a) => a.filter,
    }),
    callbackUrl: t.exposeString('callbackUrl', {
      nullable: true,
      description: 'Where alert.matched webhooks are posted (at most one a minute); null: none.',
    }),
    createdAt: t.expose('createdAt', {
      type: 'DateTime',
      description: 'When the alert was created.',
    }),
    matchCount: t.exposeInt('matchCount', { description: 'Stores matched so far.' }),
    matches: t.field({
      type: AlertMatchConnection,
      description: 'The matches, newest first.',
      args: pageArgs,
      resolve: (alert, args, ctx) =>
        offsetConnection(
          args,
          (window) => listMatches(ctx, alert.id, window),
          async () => ({ total: alert.matchCount, exact: true }),
        ),
    }),
  }),
});

const AlertConnection = builder.connectionObject(
  {
    type: AlertRef,
    name: 'AlertConnection',
    description: "A page of the account's alerts, newest first.",
  },
  { name: 'AlertEdge', description: 'One alert, with its cursor.' },
);

builder.queryField('alerts', (t) =>
  t.field({
    type: AlertConnection,
    description: "The key's account's alerts, newest first.",
    args: pageArgs,
    resolve: (_root, args, ctx) =>
      offsetConnection(
        args,
        (window) => listAlerts(ctx, window),
        () => countAlerts(ctx),
      ),
  }),
);

builder.queryField('alert', (t) =>
  t.field({
    type: AlertRef,
    nullable: true,
    description: "One alert of the key's account; not_found otherwise (another account's too).",
    args: { id: t.arg.int({ required: true, description: 'The alert id (Alert.alertId).' }) },
    resolve: (_root, { id }, ctx) => findAlert(ctx, id),
  }),
);

builder.mutationField('createAlert', (t) =>
  t.field({
    type: AlertRef,
    description:
      "Save a store filter as an alert of the key's account: a store that an observation makes newly match it is " +
      "recorded once (stores already matching now are not). bad_request (HTTP 409 on REST) with details.reason alert_limit past the plan's number of alerts.",
    args: {
      name: t.arg.string({
        required: true,
        description: `A name for people, 1 to ${MAX_ALERT_NAME} characters.`,
      }),
      filter: t.arg({
        type: StoreFilter,
        required: true,
        description: 'The filter, as the store search takes it (at least one field).',
      }),
      callbackUrl: t.arg.string({
        description:
          'HTTPS URL that receives signed alert.matched webhooks (batched, at most one a minute).',
      }),
    },
    resolve: (_root, { name, filter, callbackUrl }, ctx) =>
      createAlert(ctx, { name, filter, callbackUrl }),
  }),
);

const DeletedAlertRef = builder.objectRef<{ id: number }>('DeletedAlert').implement({
  description: 'An alert deleted with its matches.',
  fields: (t) => ({
    id: t.exposeInt('id', { description: 'The id of the deleted alert.' }),
    deleted: t.boolean({
      description: 'Always true: an alert that cannot be deleted answers an error instead.',
      resolve: () => true,
    }),
  }),
});

builder.mutationField('deleteAlert', (t) =>
  t.field({
    type: DeletedAlertRef,
    description: 'Delete an alert with its matches; pending webhooks of it are dropped.',
    args: { id: t.arg.int({ required: true, description: 'The alert id (Alert.alertId).' }) },
    resolve: async (_root, { id }, ctx) => ({ id: (await deleteAlert(ctx, id)).id }),
  }),
);
