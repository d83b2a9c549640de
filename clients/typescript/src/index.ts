// A typed client for the Store-Intelligence REST API (/v1): openapi-fetch over the types
// openapi-typescript generated from the service's OpenAPI description (schema.ts, by
// `npm run codegen`), so every path, parameter, body and answer is checked by the compiler.
//
//   const api = createStoreIntelligenceClient({ baseUrl: 'http://localhost:8080', apiKey });
//   const { data, error } = await api.GET('/v1/stores', { params: { query: { q: 'riverbasket' } } });
//
// `error` is the contract's envelope {error: {code, message, details}} when the answer is not 2xx.
// Each answer shape has its own typed call: GET /v1/stores is the plain list of store cards,
// groupStores() its grouped mode (groupBy), exportList() the CSV and NDJSON exports of a list.
import createClient, { type ClientOptions } from 'openapi-fetch';
import type { components, ExportablePath, paths } from './schema.ts';

export type { components, ExportablePath, operations, paths } from './schema.ts';

type Schemas = components['schemas'];
type SearchStores = paths['/v1/stores']['get'];
type StoresQuery = NonNullable<SearchStores['parameters']['query']>;
/** what only the grouped mode takes */
type GroupingKeys = 'groupBy' | 'groupBy2' | 'groupMetric';
export type StoreGroupQuery = StoresQuery & { groupBy: NonNullable<StoresQuery['groupBy']> };

/** GET /v1/stores as a plain list: the grouping parameters go through groupStores(). */
type PlainSearchStores = Omit<SearchStores, 'parameters' | 'responses'> & {
  parameters: Omit<SearchStores['parameters'], 'query'> & {
    query?: Omit<StoresQuery, GroupingKeys>;
  };
  responses: Omit<SearchStores['responses'], 200> & {
    200: Omit<SearchStores['responses'][200], 'content'> & {
      content: { 'application/json': Schemas['StoreList'] };
    };
  };
};

/** The paths as the client's GET/POST/… see them. */
export type ClientPaths = Omit<paths, '/v1/stores'> & {
  '/v1/stores': Omit<paths['/v1/stores'], 'get'> & { get: PlainSearchStores };
};

export interface StoreIntelligenceClientOptions extends Omit<ClientOptions, 'baseUrl' | 'headers'> {
  /** where the service runs, e.g. http://localhost:8080 */
  baseUrl: string;
  /** sent as X-Api-Key (never in the query string); omit on a server in open-dev mode */
  apiKey?: string;
  /** sent with every request */
  headers?: Record<string, string>;
}

export type ExportFormat = 'csv' | 'ndjson';

/** What an export's headers and last line state (docs.md, "Exports"). */
export interface ExportSummary {
  total: number;
  rows: number;
  complete: boolean;
}

export interface ExportAnswer {
  /** the file, its last line (the end marker) included; undefined when refused */
  text?: string;
  /** what the file holds, from the X-Export-* headers */
  summary?: ExportSummary;
  error?:
    | Schemas['Error_bad_request']
    | Schemas['Error_rate_limited']
    | { error: { code: string; message: string; details: unknown } };
  response: Response;
}

type ParamsOf<P extends ExportablePath> = paths[P]['get']['parameters'];
/** the path parameters (when the path has any) and the optional query parameters of an exportable list */
type ExportParams<P extends ExportablePath> = ([ParamsOf<P>['path']] extends [never | undefined]
  ? { path?: never }
  : { path: NonNullable<ParamsOf<P>['path']> }) & {
  query?: NonNullable<ParamsOf<P>['query']>;
};

export function createStoreIntelligenceClient({
  baseUrl,
  apiKey,
  headers,
  ...options
}: StoreIntelligenceClientOptions) {
  const client = createClient<ClientPaths>({
    ...options,
    baseUrl,
    headers: { ...(apiKey ? { 'X-Api-Key': apiKey } : {}), ...headers },
  });
  // the untyped face of the same client, for the calls whose answers the plain paths do not describe
  const raw = client as unknown as {
    GET(
      path: string,
      init: object,
    ): Promise<{ data?: unknown; error?: unknown; response: Response }>;
  };

  return Object.assign(client, {
    /** GET /v1/stores with groupBy: a page of grouped rows. */
    async groupStores(query: StoreGroupQuery) {
      const { data, error, response } = await raw.GET('/v1/stores', { params: { query } });
      return {
        data: data as Schemas['StoreGroupList'] | undefined,
        error: error as Schemas['Error_bad_request'] | undefined,
        response,
      };
    },

    /** A list as CSV or NDJSON (format=), at most `limit` items when given, within the plan's result window. */
    async exportList<P extends ExportablePath>(
      path: P,
      { format, params }: { format: ExportFormat; params?: ExportParams<P> },
    ): Promise<ExportAnswer> {
      const given = (params ?? {}) as { path?: object; query?: object };
      const { data, error, response } = await raw.GET(path, {
        params: { path: given.path, query: { ...given.query, format } },
        parseAs: 'text',
      });
      if (error !== undefined) return { error: error as ExportAnswer['error'], response };
      const header = (name: string) => response.headers.get(name);
      const summary = {
        total: Number(header('x-export-total')),
        rows: Number(header('x-export-rows')),
        complete: header('x-export-complete') === 'true',
      };
      return { text: data as string, summary, response };
    },
  });
}

export type StoreIntelligenceClient = ReturnType<typeof createStoreIntelligenceClient>;
