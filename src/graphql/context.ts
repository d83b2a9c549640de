// One context per GraphQL request: the services and that request's DataLoaders. Loaders are made
// lazily, the first time a resolver asks for one, and live only as long as the request, so their
// caches never serve one caller's reads to another or go stale across requests.
import type DataLoader from 'dataloader';
import type { Services } from '../platform/services.ts';

export interface GraphqlContext {
  services: Services;
  requestId?: string;
  /** the caller's account (owner of what it creates, e.g. scrape requests); null in open-dev mode */
  accountId: number | null;
  /** the key's scopes (e.g. signals:read for a partner service key); empty for user keys and open-dev */
  scopes: readonly string[];
  /** this request's loaders, keyed by the defineLoader that made them */
  readonly loaders: Map<symbol, DataLoader<unknown, unknown, unknown>>;
  /** the deepest item the caller's plan lists (set on admission); no page reaches past it */
  resultWindow?: number;
}

export interface GraphqlContextInit {
  requestId?: string;
  accountId?: number | null;
  scopes?: readonly string[];
}

export function createGraphqlContext(
  services: Services,
  init: GraphqlContextInit = {},
): GraphqlContext {
  return {
    services,
    requestId: init.requestId,
    accountId: init.accountId ?? null,
    scopes: init.scopes ?? [],
    loaders: new Map(),
  };
}

/**
 * Declares a per-request loader: `const storeById = defineLoader((ctx) => new DataLoader(...))`,
 * then `storeById(ctx).load(id)` anywhere in the request returns the same instance.
 */
export function defineLoader<K, V, C = K, L extends DataLoader<K, V, C> = DataLoader<K, V, C>>(
  create: (ctx: GraphqlContext) => L,
): (ctx: GraphqlContext) => L {
  const key = Symbol('loader');
  return (ctx) => {
    let loader = ctx.loaders.get(key) as L | undefined;
    if (!loader) {
      loader = create(ctx);
      ctx.loaders.set(key, loader as DataLoader<unknown, unknown, unknown>);
    }
    return loader;
  };
}
