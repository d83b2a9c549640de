// One REST route = one small definition: where it lives, which persisted operation it runs, how
// its parameters are parsed, how they become variables and how the data becomes the /v1 body. What
// a call costs is not here: the operation's root field declares it (src/access/field-rules.ts).
// The Fastify registration, the OpenAPI description and docs.md are all generated from these.
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { z } from 'zod';
import type { ErrorCode, ErrorReason } from '../src/platform/errors.ts';

export const TAGS = {
  Discovery: 'Open routes: no key, no rate limit.',
  Stores: 'Store search, profiles, comparison and per-store series.',
  Products: 'Product search, single products and the product change feed.',
  Changes: 'One feed of product, app and store movements.',
  Analytics: 'Market analytics: coverage, verticals, countries, movers and app rankings.',
  Apps: 'Platform apps, the stores observed running them and their monthly install trends.',
  Scrapes: 'On-demand scrapes of stores: queue, poll, or receive a webhook.',
  Signals:
    'Per-account watches on competitor stores: probes, estimated sales, inventory, insights, ads and changes.',
  Alerts:
    'Saved searches that alert: a store filter of GET /v1/stores whose newly matching stores are recorded, listed and pushed by webhook.',
  Usage: "The calling key's quotas and rate limits today.",
} as const;
export type Tag = keyof typeof TAGS;

/**
 * The data a route responds from: an operation that answered any error never reaches respond
 * (run-route.ts throws it), and a root lookup is null only beside its not_found error, so every
 * root field is present.
 */
export type Found<TData> = { [K in keyof TData]: NonNullable<TData[K]> };

type Params<
  TPath extends z.ZodObject,
  TQuery extends z.ZodObject,
  TBody extends z.ZodObject = typeof noBody,
> = z.output<TPath> & z.output<TQuery> & z.output<TBody>;

export interface RouteSpec<
  TData,
  TVariables,
  TPath extends z.ZodObject,
  TQuery extends z.ZodObject,
  TResponse extends z.ZodType,
  TBody extends z.ZodObject = typeof noBody,
> {
  /** OpenAPI operationId; also names the route in docs.md */
  operationId: string;
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** OpenAPI path template, e.g. /v1/stores/{domain} */
  path: `/v1/${string}`;
  tag: Exclude<Tag, 'Discovery'>;
  summary: string;
  /** Markdown; states the decisions the contract leaves open ("not shown") for this route */
  description: string;
  /** the persisted operation (generated typed document; executed from the manifest) */
  document: TypedDocumentNode<TData, TVariables>;
  pathParams: TPath;
  /** a strict object: unknown query parameters are a bad_request naming them */
  query: TQuery;
  /** POST and PATCH routes: the JSON body, a strict object (unknown fields are a bad_request naming them) */
  body?: TBody;
  /** whether a missing resource in the path gives not_found */
  canBeNotFound: boolean;
  /** errors this route answers beyond every data route's and not_found, e.g. already_tracked (409) */
  extraErrors?: readonly (ErrorCode | ErrorReason)[];
  variables(params: Params<TPath, TQuery, TBody>): TVariables;
  response: TResponse;
  respond(data: Found<TData>, params: Params<TPath, TQuery, TBody>): z.input<TResponse>;
  /** the success status of a response (default 200), e.g. 202 for a queued job */
  status?(body: z.input<TResponse>): number;
  /** success statuses and what each means, for the OpenAPI description (default 200 only) */
  successStatuses?: Readonly<Record<number, string>>;
  /** a store or product list that also answers text/csv and application/x-ndjson (rest/export/export-list.ts) */
  exportable?: true;
  /**
   * an answer (not a paged list) that also answers text/csv and application/x-ndjson, whole: one row
   * per item of `rows(body)`, with the columns of `row` (rest/export/export-answer.ts)
   */
  answerExport?: {
    row: z.ZodObject;
    rows(body: z.input<TResponse>, params: Params<TPath, TQuery, TBody>): unknown[];
  };
  /**
   * a POST route that also takes its body as text/csv: one column of values, with or without a
   * header row naming it, read into this body field (an array of strings)
   */
  csvBody?: keyof z.output<TBody> & string;
  /** a concrete request for the docs, e.g. /v1/stores?q=acme&limit=5 */
  example: string;
}

/** A route with its types erased for the route table: an operation's data, and its variables object. */
export type RestRoute = RouteSpec<
  unknown,
  Record<string, unknown>,
  z.ZodObject,
  z.ZodObject,
  z.ZodType,
  z.ZodObject
>;

export function defineRoute<
  TData,
  TVariables,
  TPath extends z.ZodObject,
  TQuery extends z.ZodObject,
  TResponse extends z.ZodType,
  TBody extends z.ZodObject = typeof noBody,
>(spec: RouteSpec<TData, TVariables, TPath, TQuery, TResponse, TBody>): RestRoute {
  return spec as unknown as RestRoute;
}

export const noPathParams = z.strictObject({});
export const noQuery = z.strictObject({});
export const noBody = z.strictObject({});

/** /v1/stores/{domain} -> /v1/stores/:domain */
export const fastifyPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');
