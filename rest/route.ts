// One REST route = one small definition: where it lives, which persisted operation it runs, how
// its parameters are parsed, how they become variables and how the data becomes the /v1 body.
// The Fastify registration, the OpenAPI description and docs.md are all generated from these.
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { z } from 'zod';
import type { QuotaBucket } from '../src/access/plans.ts';

export const TAGS = {
  Discovery: 'Open routes: no key, no rate limit.',
  Stores: 'Store search, profiles, comparison and per-store series.',
  Products: 'Product search, single products and the product change feed.',
  Changes: 'One feed of product, app and store movements.',
  Analytics: 'Market analytics: coverage, verticals, countries and movers.',
  Apps: 'Platform apps and the stores observed running them.',
} as const;
export type Tag = keyof typeof TAGS;

type Params<TPath extends z.ZodObject, TQuery extends z.ZodObject> = z.output<TPath> & z.output<TQuery>;

export interface RouteSpec<
  TData,
  TVariables,
  TPath extends z.ZodObject,
  TQuery extends z.ZodObject,
  TResponse extends z.ZodType,
> {
  /** OpenAPI operationId; also names the route in docs.md */
  operationId: string;
  method: 'GET';
  /** OpenAPI path template, e.g. /v1/stores/{domain} */
  path: `/v1/${string}`;
  tag: Exclude<Tag, 'Discovery'>;
  /** the account's daily bucket a call counts against (spec part 5.6), the same as its GraphQL root field's */
  quotaBucket: QuotaBucket;
  summary: string;
  /** Markdown; states the decisions the contract leaves open ("not shown") for this route */
  description: string;
  /** the persisted operation (generated typed document; executed from the manifest) */
  document: TypedDocumentNode<TData, TVariables>;
  pathParams: TPath;
  /** a strict object: unknown query parameters are a bad_request naming them */
  query: TQuery;
  /** whether a missing resource in the path gives not_found */
  canBeNotFound: boolean;
  variables(params: Params<TPath, TQuery>): TVariables;
  response: TResponse;
  respond(data: TData, params: Params<TPath, TQuery>): z.input<TResponse>;
  /** a concrete request for the docs, e.g. /v1/stores?q=acme&limit=5 */
  example: string;
}

export type RestRoute = RouteSpec<any, any, z.ZodObject, z.ZodObject, z.ZodType>;

export function defineRoute<
  TData,
  TVariables,
  TPath extends z.ZodObject,
  TQuery extends z.ZodObject,
  TResponse extends z.ZodType,
>(spec: RouteSpec<TData, TVariables, TPath, TQuery, TResponse>): RestRoute {
  return spec as unknown as RestRoute;
}

export const noPathParams = z.strictObject({});
export const noQuery = z.strictObject({});

/** /v1/stores/{domain} -> /v1/stores/:domain */
export const fastifyPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');
