// The OpenAPI 3.1 description, generated from the route table and its zod schemas (never kept by
// hand beside them). Built once per process; the served copy and docs.md both come from here.
import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import type { OpenAPIObject } from 'openapi3-ts/oas31';
import packageJson from '../../package.json' with { type: 'json' };
import { Kind, getOperationAST } from 'graphql';
import { rulesOf, type FieldRules } from '../../src/access/field-rules.ts';
import { schema } from '../../src/gateway/schema.ts';
import { QUOTA_BUCKET_DESCRIPTIONS } from '../../src/access/plans.ts';
import { DECISIONS } from './decisions.ts';
import { USAGE_RULES } from './usage-rules.ts';
import { callerQueryOf } from '../export/export-format.ts';
import { EXPORT_HEADERS } from '../export/export-list.ts';
import { TAGS, type RestRoute } from '../route.ts';
import { catalogRoutes } from '../routes/index.ts';
import { DATA_ROUTE_ERRORS, errorResponses } from './error-responses.ts';
import { registerSelfDescriptionPaths } from './self-description-paths.ts';
import { RATE_LIMIT_HEADERS } from './rate-limit-headers.ts';
import { registerWebhooks } from './webhooks.ts';
import { applyRequestExamples } from './request-examples.ts';
import RESPONSE_EXAMPLES from './response-examples.json' with { type: 'json' };
import { registerScreenshotPath } from './screenshot-path.ts';

export const API_TITLE = 'Store-Intelligence API';
export const API_SUMMARY =
  'Facts about online stores on one e-commerce platform, their products and apps.';

export const SECURITY_SCHEMES = {
  bearerAuth: {
    type: 'http',
    scheme: 'bearer',
    description:
      'Authorization: Bearer <API_KEY>. A self-hosted server mints keys with `npm run keys -- create --account ACCOUNT ' +
      "--plan starter` (printed once); the hosted service mints them on its web app's integrations page (paid plans).",
  },
  apiKeyHeader: {
    type: 'apiKey',
    in: 'header',
    name: 'X-Api-Key',
    description:
      'X-Api-Key: <API_KEY>, the alternative to the bearer header. Never send the key in the query string.',
  },
} as const;

/** The rules the route's operation declares on its root field (its bucket and units). */
function rulesOfRoute(route: RestRoute): FieldRules {
  const operation = getOperationAST(route.document);
  const root = operation && schema.getRootType(operation.operation);
  const field = operation?.selectionSet.selections[0];
  return field?.kind === Kind.FIELD ? rulesOf(root?.getFields()[field.name.value]) : {};
}

/** What an exportable list says about its exports (rest/export/export-list.ts). */
export const EXPORT_TEXT =
  'Export: `format=csv` or `format=ndjson`, or an Accept header preferring `text/csv` or `application/x-ndjson` to ' +
  'JSON (RFC 9110: q-values, then order; `*/*` or a JSON-first list gets JSON), streams the list from `offset` to ' +
  "its end (at most `limit` items when given, within the plan's result window) in pages of 100, each charged as one " +
  'call of this route, all charged before the first byte: a quota that cannot pay for the whole file refuses it. CSV ' +
  'has a header row and one column per field of an item, nested fields as dotted names (monthlyRevenueUsd.low); ' +
  "NDJSON has one item per line. X-Export-Total, X-Export-Rows and X-Export-Complete state the list's total, the " +
  "file's rows and whether it reaches the end of the list; the last line repeats them (`#export rows=R total=T " +
  'complete=true|false` in CSV, `{"export":{"total":T,"rows":R,"complete":…}}` in NDJSON). A file without it was cut off.';

/** Sent with an export only, before its body. */
const EXPORT_RESPONSE_HEADERS = {
  [EXPORT_HEADERS.total]: {
    description: 'Export only: items in the whole list.',
    schema: { type: 'integer' },
  },
  [EXPORT_HEADERS.rows]: {
    description: 'Export only: items this file holds.',
    schema: { type: 'integer' },
  },
  [EXPORT_HEADERS.complete]: {
    description:
      "Export only: true when the file reaches the end of the list; false when `limit` or the plan's result window stopped it.",
    schema: { type: 'string', enum: ['true', 'false'] },
  },
} as const;

const EXPORT_CONTENT = {
  'text/csv': {
    schema: {
      type: 'string',
      description: 'CSV (RFC 4180): a header row, one row per item, then the `#export …` line.',
    },
  },
  'application/x-ndjson': {
    schema: {
      type: 'string',
      description: 'One JSON item per line, as in `data`, then the `{"export": …}` line.',
    },
  },
} as const;

/** A route's text/csv body: one column of its `field`'s values. */
const csvBodyContent = (field: string) => ({
  'text/csv': {
    schema: {
      type: 'string' as const,
      description: `One column of ${field}, one a line, with or without a header row naming it (\`${field.replace(/s$/, '')}\`).`,
    },
  },
});

function registerRoute(registry: OpenAPIRegistry, route: RestRoute): void {
  const { quota: bucket, unitsFrom, unitsFound } = rulesOfRoute(route);
  const per = unitsFrom ? ` per item of \`${unitsFrom}\`` : unitsFound ? ' per item found' : '';
  const quota = bucket
    ? `one request${per} in the daily bucket \`${bucket}\` (${QUOTA_BUCKET_DESCRIPTIONS[bucket]}), plus`
    : 'no daily bucket; only';
  const success = route.successStatuses ?? { 200: 'Success.' };
  registry.registerPath({
    method: route.method.toLowerCase() as 'get' | 'post' | 'patch' | 'delete',
    path: route.path,
    operationId: route.operationId,
    tags: [route.tag],
    summary: route.summary,
    description:
      `${route.description}\n\nQuota: ${quota} the key's per-minute rate and per-key daily ceiling.\n\n` +
      (route.exportable ? `${EXPORT_TEXT}\n\n` : '') +
      `Example: \`${route.method} ${route.example}\``,
    request: {
      params: route.pathParams,
      query: callerQueryOf(route),
      ...(route.body
        ? {
            body: {
              required: true,
              content: {
                'application/json': { schema: route.body },
                ...(route.csvBody ? csvBodyContent(route.csvBody) : {}),
              },
            },
          }
        : {}),
    },
    responses: {
      ...Object.fromEntries(
        Object.entries(success).map(([status, description]) => [
          status,
          {
            description,
            headers:
              route.exportable || route.answerExport
                ? { ...RATE_LIMIT_HEADERS, ...EXPORT_RESPONSE_HEADERS }
                : RATE_LIMIT_HEADERS,
            content: {
              'application/json': { schema: route.response },
              ...(route.exportable || route.answerExport ? EXPORT_CONTENT : {}),
            },
          },
        ]),
      ),
      ...errorResponses([
        ...DATA_ROUTE_ERRORS,
        ...(route.canBeNotFound ? (['not_found'] as const) : []),
        ...(route.extraErrors ?? []),
      ]),
    },
  });
}

export function buildOpenApiDocument(
  options: { serverUrl?: string; routes?: readonly RestRoute[] } = {},
): OpenAPIObject {
  const registry = new OpenAPIRegistry();
  for (const [name, scheme] of Object.entries(SECURITY_SCHEMES))
    registry.registerComponent('securitySchemes', name, scheme);
  registerSelfDescriptionPaths(registry);
  for (const route of options.routes ?? catalogRoutes) registerRoute(registry, route);
  registerScreenshotPath(registry);
  registerWebhooks(registry);

  const document = new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: API_TITLE,
      version: packageJson.version,
      description: infoDescription(),
    },
    // without a public URL, none: a client resolves paths against where it fetched this (a server of
    // '/' makes the /docs console send to //v1/…)
    ...(options.serverUrl
      ? { servers: [{ url: options.serverUrl, description: 'This server' }] }
      : {}),
    // data routes need a key (either header); discovery routes override this with `security: []`
    security: [{ bearerAuth: [] }, { apiKeyHeader: [] }],
    tags: Object.entries(TAGS).map(([name, description]) => ({ name, description })),
  });
  applyRequestExamples(document, options.routes ?? catalogRoutes, RESPONSE_EXAMPLES);
  return document;
}

function infoDescription(): string {
  return [
    `${API_SUMMARY} REST/JSON over the catalog. Lists use \`{data, page: {limit, offset, count, hasMore, total}}\`; ` +
      '`limit` defaults to 20 (maximum 100), `offset` to 0; stop paging when `page.hasMore` is false. ' +
      'Errors are `{error: {code, message, details}}`.',
    '## Usage rules',
    USAGE_RULES.map((rule, index) => `${index + 1}. ${rule}`).join('\n'),
    '## Decisions where the contract is open',
    DECISIONS.map((d) => `- **${d.topic}**: ${d.decision}`).join('\n'),
  ].join('\n\n');
}
