// Pays at start what the first request would otherwise pay once: the pools' connections read the
// catalog's tables and indexes, Prisma compiles the key lookup and use-record shapes, the search
// vocabularies load (src/search/nearest-terms.ts), and the search routes and a store profile run
// once through the route runner. They run as the warm-up's own open-dev caller, bound to a request
// object no HTTP request can be (its own per-minute bucket, never a key); a failure leaves them unpaid.
import { KeyAuthenticator } from '../src/access/authenticate.ts';
import type { OpenDevPrincipal } from '../src/access/principal.ts';
import { catalogRoutes, type RunRoute } from '../rest/index.ts';
import { parseParams } from '../rest/parse-params.ts';
import type { Logger } from '../src/platform/logger.ts';
import type { Services } from '../src/platform/services.ts';
import {
  PRODUCT_VOCABULARY,
  resolveProductFilter,
  titleSearchPage,
} from '../src/products/product-search.sql.ts';
import { resolveStoreFilter } from '../src/stores/store-filter.ts';
import { textSearchPage } from '../src/stores/store-search.sql.ts';
import { STORE_VOCABULARY } from '../src/stores/store-text-search.ts';
import { shareTermIndexes } from '../src/search/nearest-terms.ts';
import type pg from 'pg';
import type { Queryable } from '../src/platform/database/sql.ts';

/** connections of each pool warmed: the store search runs its statements one after the other on one */
const CONNECTIONS = 2;
/** the words searched when the vocabulary has none (an empty catalog) */
const NO_WORDS = 'warmup';
/** a key of the right form that was never issued: its lookup finds nothing */
const UNKNOWN_KEY = 'sk_live_warmupwarmupwarmupwarmupwarmup';

/** the caller the warm-up's routes run as */
const WARM_UP_CALLER: OpenDevPrincipal = { kind: 'openDev', client: 'warm-up' };

const connectable = (pool: Queryable): pool is pg.Pool =>
  typeof (pool as Partial<pg.Pool>).connect === 'function';

/**
 * Two words of a vocabulary: its most common term (read by walking the covering index) and one
 * held by a few hundred to a few thousand documents (read through the GIN index), as one query.
 */
async function catalogWords(pool: Queryable, table: string, count: string): Promise<string> {
  const { rows } = await pool.query<{ term: string }>(
    `(SELECT term FROM ${table} ORDER BY ${count} DESC LIMIT 1)
     UNION ALL (SELECT term FROM ${table} WHERE ${count} BETWEEN 500 AND 5000 LIMIT 1)`,
  );
  return rows.map((row) => row.term).join(' ') || NO_WORDS;
}

interface SearchWords {
  stores: string;
  products: string;
}

async function warmConnection(pool: Queryable, words: SearchWords): Promise<void> {
  const stores = await resolveStoreFilter(pool, { q: words.stores });
  if (stores?.textMatch)
    await textSearchPage(pool, { ...stores, textMatch: stores.textMatch }, 'relevance', {
      offset: 0,
      limit: 20,
    });
  const products = await resolveProductFilter(pool, { q: words.products });
  if (products.textMatch)
    await titleSearchPage(
      pool,
      { ...products, textMatch: products.textMatch },
      { offset: 0, limit: 20 },
    );
}

/** The search routes with `words`, then the profile of the first store found, as their handlers run them. */
async function warmRoutes(runRoute: RunRoute, words: SearchWords): Promise<void> {
  const run = (
    operationId: string,
    path: Record<string, string>,
    query: Record<string, string>,
  ) => {
    const route = catalogRoutes.find((r) => r.operationId === operationId);
    if (!route) throw new Error(`no route ${operationId}`);
    return runRoute(route, parseParams(route, path, query), { principal: WARM_UP_CALLER });
  };
  const found = await run('searchStores', {}, { q: words.stores, limit: '20' });
  await run('searchProducts', {}, { q: words.products, limit: '20' });
  const domain = (found.body as { data?: Array<{ domain: string }> }).data?.[0]?.domain;
  if (domain) await run('getStore', { domain }, {});
}

export async function warmUp(
  services: Pick<Services, 'db'>,
  logger: Logger,
  runRoute?: RunRoute,
): Promise<void> {
  const started = performance.now();
  const pools = [...new Set([services.db.pool, services.db.read])];
  try {
    const words: SearchWords = {
      stores: await catalogWords(
        services.db.read,
        STORE_VOCABULARY.table,
        STORE_VOCABULARY.countColumn,
      ),
      products: await catalogWords(
        services.db.read,
        PRODUCT_VOCABULARY.table,
        PRODUCT_VOCABULARY.countColumn,
      ),
    };
    await Promise.all([
      new KeyAuthenticator(services.db.prisma, logger).warmUp(UNKNOWN_KEY),
      ...pools.flatMap((pool) =>
        Array.from({ length: CONNECTIONS }, async () => {
          // held together, so that each warms a connection of its own
          const client = connectable(pool) ? await pool.connect() : null;
          if (client) shareTermIndexes(client, pool);
          try {
            await warmConnection(client ?? pool, words);
          } finally {
            client?.release();
          }
        }),
      ),
    ]);
    if (runRoute) await warmRoutes(runRoute, words);
    logger.debug({ ms: Math.round(performance.now() - started) }, 'warmed up');
  } catch (error) {
    logger.warn({ err: error }, 'warm-up failed; the first requests will be slower');
  }
}
