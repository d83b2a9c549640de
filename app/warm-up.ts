// Before the service answers its first request: what the first request would otherwise pay for
// once, paid at start. A PostgreSQL connection is opened lazily and its backend reads the catalog
// (tables, indexes, operator classes, the pg_trgm library) the first time a statement needs it;
// Prisma plans a query shape the first time it runs it (the key lookup of every request's
// authentication). Each is tens of milliseconds, and the first search after a restart paid them
// all (130 to 210 ms at 1M stores). A search of each kind on the connections the pools keep open,
// and a lookup of a key no one has, pay them here instead; a failure only leaves them unpaid.
import { KeyAuthenticator } from '../src/access/authenticate.ts';
import type { Logger } from '../src/platform/logger.ts';
import type { Services } from '../src/platform/services.ts';
import { resolveProductFilter, titleSearchPage } from '../src/products/product-search.sql.ts';
import { resolveStoreFilter } from '../src/stores/store-filter.ts';
import { textSearchPage } from '../src/stores/store-search.sql.ts';
import type pg from 'pg';
import type { Queryable } from '../src/platform/database/sql.ts';

/** connections of each pool warmed: the store search runs its statements one after the other on one */
const CONNECTIONS = 2;
/** a word of no catalog: the search statements run through, quickly, without returning anything */
const WORD = 'warmup';
/** a key of the right form that was never issued: its lookup finds nothing */
const UNKNOWN_KEY = 'sk_live_warmupwarmupwarmupwarmupwarmup';

const connectable = (pool: Queryable): pool is pg.Pool => typeof (pool as Partial<pg.Pool>).connect === 'function';

async function warmConnection(pool: Queryable): Promise<void> {
  const stores = await resolveStoreFilter(pool, { q: WORD });
  if (stores?.textMatch) await textSearchPage(pool, { ...stores, textMatch: stores.textMatch }, 'relevance', { offset: 0, limit: 1 });
  const products = await resolveProductFilter(pool, { q: WORD });
  if (products.textMatch) await titleSearchPage(pool, { ...products, textMatch: products.textMatch }, { offset: 0, limit: 1 });
}

export async function warmUp(services: Pick<Services, 'db'>, logger: Logger): Promise<void> {
  const started = performance.now();
  const pools = [...new Set([services.db.pool, services.db.read])];
  try {
    await Promise.all([
      new KeyAuthenticator(services.db.prisma, logger).authenticate(UNKNOWN_KEY).catch(() => undefined),
      ...pools.flatMap((pool) =>
        Array.from({ length: CONNECTIONS }, async () => {
          // held together, so that each warms a connection of its own
          const client = connectable(pool) ? await pool.connect() : null;
          try {
            await warmConnection(client ?? pool);
          } finally {
            client?.release();
          }
        }),
      ),
    ]);
    logger.debug({ ms: Math.round(performance.now() - started) }, 'warmed up');
  } catch (error) {
    logger.warn({ err: error }, 'warm-up failed; the first requests will be slower');
  }
}
