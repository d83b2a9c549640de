// A typed client for the Store-Intelligence REST API (/v1): openapi-fetch over the types
// openapi-typescript generated from the service's OpenAPI description (schema.ts, by
// `npm run codegen`), so every path, parameter, body and answer is checked by the compiler.
//
//   const api = createStoreIntelligenceClient({ baseUrl: 'http://localhost:8080', apiKey });
//   const { data, error } = await api.GET('/v1/stores', { params: { query: { q: 'riverbasket' } } });
//
// `error` is the contract's envelope {error: {code, message, details}} when the answer is not 2xx.
import createClient, { type ClientOptions } from 'openapi-fetch';
import type { paths } from './schema.ts';

export type { components, operations, paths } from './schema.ts';

export interface StoreIntelligenceClientOptions extends Omit<ClientOptions, 'baseUrl' | 'headers'> {
  /** where the service runs, e.g. http://localhost:8080 */
  baseUrl: string;
  /** sent as X-Api-Key (never in the query string); omit on a server in open-dev mode */
  apiKey?: string;
  /** sent with every request */
  headers?: Record<string, string>;
}

export function createStoreIntelligenceClient({ baseUrl, apiKey, headers, ...options }: StoreIntelligenceClientOptions) {
  return createClient<paths>({
    ...options,
    baseUrl,
    headers: { ...(apiKey ? { 'X-Api-Key': apiKey } : {}), ...headers },
  });
}

export type StoreIntelligenceClient = ReturnType<typeof createStoreIntelligenceClient>;
