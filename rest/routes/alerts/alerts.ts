// Saved searches that alert: POST /v1/alerts, GET /v1/alerts, GET /v1/alerts/{id}/matches and
// DELETE /v1/alerts/{id}. The filter is the query parameters of GET /v1/stores as one object,
// parsed by that route's own parameter schemas; sort, groupBy and pagination are not filters.
import { z } from 'zod';
import {
  CreateAlertDocument,
  DeleteAlertDocument,
  ListAlertMatchesDocument,
  ListAlertsDocument,
  type AlertFieldsFragment,
} from '../../generated/operations.ts';
import { connectionArgs, listEnvelope } from '../../pagination.ts';
import { integerParam, paginationParams } from '../../params.ts';
import { defineRoute, noPathParams, noQuery, type RestRoute } from '../../route.ts';
import { DateTime, listOf } from '../../shapes.ts';
import {
  checkFilterRanges,
  storeFilterParams,
  storeFilterVariables,
} from '../stores/store-filters.ts';
import { DEFAULT_PLANS } from '../../../src/access/plans.ts';
import { MAX_ALERT_NAME } from '../../../src/alerts/alerts.ts';

export const Alert = z
  .strictObject({
    id: z.number().int().meta({ description: 'The alert id.', example: 1 }),
    name: z.string(),
    filter: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).meta({
      description:
        'The filter as given: query parameters of GET /v1/stores with their values in the same formats.',
      example: { app: 'klaviyo-email-marketing' },
    }),
    callbackUrl: z.string().nullable().meta({
      description: 'Where alert.matched webhooks go (at most one a minute); null: none.',
    }),
    createdAt: DateTime,
    matchCount: z.number().int().meta({ description: 'Stores matched so far.' }),
    links: z.strictObject({ matches: z.string() }),
  })
  .meta({ id: 'Alert', description: "A saved search that alerts, scoped to the key's account." });

export const AlertList = listOf(
  Alert,
  'AlertList',
  "A page of the account's alerts, newest first.",
);

export const AlertMatch = z
  .strictObject({
    domain: z
      .string()
      .meta({ description: "The store's canonical domain (GET /v1/stores/{domain})." }),
    matchedAt: DateTime.meta({
      description: 'When the observation that made the store match was made.',
    }),
  })
  .meta({ id: 'AlertMatch', description: "A store that newly matched the alert's filter." });

export const AlertMatchList = listOf(
  AlertMatch,
  'AlertMatchList',
  "A page of an alert's matches, newest first.",
);

export const DeletedAlert = z
  .strictObject({ id: z.number().int(), deleted: z.literal(true) })
  .meta({ id: 'DeletedAlert' });

const EXAMPLE_FILTER = { app: 'klaviyo-email-marketing' };

/** parameters of GET /v1/stores that shape a page, not the set of stores: refused in a filter */
const NOT_FILTERS = ['sort', 'groupBy', 'groupBy2', 'groupMetric', 'limit', 'offset', 'format'];
const FILTER_NAMES = Object.keys(storeFilterParams);

const alertFilter = z
  .object(storeFilterParams)
  .catchall(z.unknown())
  .superRefine((filter, ctx) => {
    for (const name of Object.keys(filter)) {
      if (FILTER_NAMES.includes(name)) continue;
      ctx.addIssue({
        code: 'custom',
        path: [name],
        message: NOT_FILTERS.includes(name)
          ? 'is not a filter: an alert matches stores, so sort, groupBy and pagination do not apply'
          : `unknown filter; a filter accepts the filters of GET /v1/stores: ${FILTER_NAMES.join(', ')}`,
      });
    }
    checkFilterRanges(filter, ctx);
    if (FILTER_NAMES.every((name) => filter[name as keyof typeof filter] === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: [],
        message: 'must hold at least one filter of GET /v1/stores',
      });
    }
  })
  .meta({
    description:
      'The filters of GET /v1/stores as one object, with the same names and value formats (app: comma-separated slugs, ' +
      'dates YYYY-MM-DD; numbers and true/false may also be JSON numbers and booleans). sort, groupBy, groupBy2, ' +
      'groupMetric, limit and offset are not filters and are refused.',
    example: EXAMPLE_FILTER,
  });

const alertPath = z.strictObject({
  id: integerParam({ min: 1 }).meta({ description: 'The alert id.', example: 1 }),
});

const SCOPE =
  "The alert must belong to the key's account: another account's alert is not_found, exactly like one that does not exist.";

const ISO_MIDNIGHT = /^(\d{4}-\d{2}-\d{2})T00:00:00\.000Z$/;

/** The stored filter in the query parameters' formats: lists comma-separated, days as YYYY-MM-DD. */
const restFilter = (filter: Record<string, unknown>): Record<string, string | number | boolean> =>
  Object.fromEntries(
    Object.entries(filter).map(([name, value]) => [
      name,
      Array.isArray(value)
        ? value.join(',')
        : typeof value === 'string'
          ? (ISO_MIDNIGHT.exec(value)?.[1] ?? value)
          : (value as number | boolean),
    ]),
  );

const alertBody = ({ alertId, ...alert }: AlertFieldsFragment) => ({
  id: alertId,
  ...alert,
  filter: restFilter(alert.filter as Record<string, unknown>),
  links: { matches: `/v1/alerts/${alertId}/matches` },
});

export const createAlert = defineRoute({
  operationId: 'createAlert',
  method: 'POST',
  path: '/v1/alerts',
  tag: 'Alerts',
  summary: 'Save a store search as an alert',
  description:
    "Saves `filter` (the filters of GET /v1/stores) as an alert of the key's account and answers HTTP 201 with it. From " +
    'then on, every observation of a store (a scrape, a scheduled re-observation, a discovery, a Signals probe) that makes ' +
    'the store newly match the filter (it did not match before that observation and does after) records one match; ' +
    'a store is matched at most once per alert. Stores that already match when the alert is created are not matches. ' +
    "With `callbackUrl` (HTTPS, the same rules as a scrape's), signed `alert.matched` webhooks carry the matches, at most " +
    'one a minute per alert, each listing the matches since the previous one. An invalid filter is bad_request naming ' +
    `the parameter (details.parameter filter.<name>). Plans allow ${DEFAULT_PLANS.starter.alerts} (starter) and ` +
    `${DEFAULT_PLANS.pro.alerts} (pro) alerts per account; past that: HTTP 400, code bad_request with details.reason "alert_limit". ` +
    'Alerts count against no daily bucket: only the per-minute rate and the per-key daily ceiling.',
  document: CreateAlertDocument,
  pathParams: noPathParams,
  query: noQuery,
  body: z.strictObject({
    name: z
      .string()
      .trim()
      .min(1)
      .max(MAX_ALERT_NAME)
      .meta({
        description: `1 to ${MAX_ALERT_NAME} characters.`,
        example: 'Stores that start running Klaviyo',
      }),
    filter: alertFilter,
    callbackUrl: z
      .string()
      .max(2_000)
      .optional()
      .meta({ description: 'HTTPS URL receiving signed alert.matched webhooks.' }),
  }),
  canBeNotFound: false,
  extraErrors: ['alert_limit'],
  variables: (p) => ({
    name: p.name,
    filter: storeFilterVariables(p.filter),
    callbackUrl: p.callbackUrl,
  }),
  response: Alert,
  respond: (data) => alertBody(data.createAlert),
  status: () => 201,
  successStatuses: { 201: 'Created: the alert.' },
  example: `/v1/alerts ${JSON.stringify({ name: 'Stores that start running Klaviyo', filter: EXAMPLE_FILTER })}`,
});

export const listAlerts = defineRoute({
  operationId: 'listAlerts',
  method: 'GET',
  path: '/v1/alerts',
  tag: 'Alerts',
  summary: "The key's alerts",
  description: "Every alert of the key's account, newest first.",
  document: ListAlertsDocument,
  pathParams: noPathParams,
  query: z.strictObject(paginationParams()),
  canBeNotFound: false,
  variables: (p) => connectionArgs(p),
  response: AlertList,
  respond: (data, p) => {
    const page = listEnvelope(data.alerts, p);
    return { ...page, data: page.data.map(alertBody) };
  },
  example: '/v1/alerts?limit=20',
});

export const listAlertMatches = defineRoute({
  operationId: 'listAlertMatches',
  method: 'GET',
  path: '/v1/alerts/{id}/matches',
  tag: 'Alerts',
  summary: "An alert's matches",
  description:
    'The stores that newly matched the alert, newest first: `{domain, matchedAt}` each, matchedAt being the time of ' +
    'the observation that made the store match (read the store with GET /v1/stores/{domain}). ' +
    SCOPE,
  document: ListAlertMatchesDocument,
  pathParams: alertPath,
  query: z.strictObject(paginationParams()),
  canBeNotFound: true,
  variables: (p) => ({ id: p.id, ...connectionArgs(p) }),
  response: AlertMatchList,
  respond: (data, p) => listEnvelope(data.alert.matches, p),
  example: '/v1/alerts/1/matches?limit=20',
});

export const deleteAlert = defineRoute({
  operationId: 'deleteAlert',
  method: 'DELETE',
  path: '/v1/alerts/{id}',
  tag: 'Alerts',
  summary: 'Delete an alert',
  description: `Deletes the alert with its matches; webhooks not yet sent are dropped. Answers \`{id, deleted: true}\`. ${SCOPE}`,
  document: DeleteAlertDocument,
  pathParams: alertPath,
  query: noQuery,
  canBeNotFound: true,
  variables: (p) => ({ id: p.id }),
  response: DeletedAlert,
  respond: (data) => ({ id: data.deleteAlert.id, deleted: true as const }),
  example: '/v1/alerts/1',
});

/** The alert routes, in the order docs.md and the OpenAPI description list them. */
export const alertRoutes: readonly RestRoute[] = [
  createAlert,
  listAlerts,
  listAlertMatches,
  deleteAlert,
];
