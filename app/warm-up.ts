// Pays at start what the first request would otherwise pay once: the pools' connections read the
// catalog's tables and indexes and prepare the key lookup and use-record statements, the search
// vocabularies load (src/search/nearest-terms.ts), and the search routes, a store profile and a store
// card go once through the server, as requests arrive: the first caller's request would otherwise
// run all of that code for the first time. They run as the warm-up's own open-dev caller (its own
// per-minute bucket, never a key), named by an internal credential that ends before the server
// listens; a failure leaves them unpaid.
import { KeyAuthenticator } from '../src/access/authenticate.ts';
import type { OpenDevPrincipal } from '../src/access/principal.ts';
import type { FastifyInstance, InjectOptions } from 'fastify';
import type { Access } from '../src/access/index.ts';
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

/** The store card the GraphQL examples open with: the JSON lane's common operation */
const STORE_CARD = `query WarmUpStoreCard($domain: String!) { store(domain: $domain) {
  domain monthlyVisits monthlyRevenueUsd { low high } vertical countryCode traffic { latest { month } } sources } }`;

/**
 * The search routes with `words`, the profile of the first store found and its card over /graphql,
 * sent through the server as a caller's requests arrive (hooks, parameters, envelope, answer), as
 * the warm-up caller. A request that fails says so: the warm-up is then not paid in full.
 */
async function warmRequests(
  app: FastifyInstance,
  access: Access,
  words: SearchWords,
): Promise<void> {
  const credential = access.internalCredential(WARM_UP_CALLER);
  try {
    let sent = 0;
    const send = async (options: InjectOptions) => {
      // its request id tells the log's reader whose requests these are
      const requestId = `warm-up-${++sent}`;
      const response = await app.inject({
        ...options,
        headers: { ...options.headers, ...credential.headers, 'x-request-id': requestId },
      });
      if (response.statusCode !== 200)
        throw new Error(`warm-up ${options.method} ${options.url} answered ${response.statusCode}`);
      return response.json() as { data?: Array<{ domain: string }> };
    };
    const search = (path: string, q: string) =>
      send({ method: 'GET', url: `${path}?${new URLSearchParams({ q, limit: '20' })}` });
    const found = await search('/v1/stores', words.stores);
    await search('/v1/products', words.products);
    const domain = found.data?.[0]?.domain;
    if (!domain) return;
    await send({ method: 'GET', url: `/v1/stores/${encodeURIComponent(domain)}` });
    await send({
      method: 'POST',
      url: '/graphql',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ query: STORE_CARD, variables: { domain } }),
    });
  } finally {
    credential.end();
  }
}

export async function warmUp(
  services: Pick<Services, 'db'>,
  logger: Logger,
  server?: { app: FastifyInstance; access: Access },
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
      new KeyAuthenticator(services.db.pool, logger).warmUp(UNKNOWN_KEY),
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
    if (server) await warmRequests(server.app, server.access, words);
    logger.debug({ ms: Math.round(performance.now() - started) }, 'warmed up');
  } catch (error) {
    logger.warn({ err: error }, 'warm-up failed; the first requests will be slower');
  }
}
