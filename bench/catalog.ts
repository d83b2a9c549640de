// The 1M-store catalog the bench runs on: reused when it already holds the stores, seeded with the
// project's own seeder otherwise; then a sample of real values (domains, names, verticals, product
// words) to rotate through, so requests do not all hit one cached row.
import { spawnSync } from 'node:child_process';
import pg from 'pg';
import { searchQueries, titleQueries } from '../test/support/search-queries.ts';

/** the catalog size the bench runs on; BENCH_STORES lowers it for trying the harness on a small catalog */
export const BENCH_STORES = Number(process.env.BENCH_STORES ?? 1_000_000);

export interface CatalogSample {
  stores: Array<{ domain: string; id: number; legacyId: string | null }>;
  /** store search queries of every kind people type (test/support/search-queries.ts), at least 200 */
  storeQueries: string[];
  verticals: string[];
  countries: string[];
  /** product title queries of every kind, at least 200 */
  titleQueries: string[];
  /** slugs of the most installed apps */
  apps: string[];
}

/** queries of each kind in the search families' rotation: nine store kinds, seven title kinds (at least 200 each) */
const QUERIES_PER_KIND = { stores: 30, titles: 36 };

async function storeCount(url: string): Promise<number | null> {
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
  } catch {
    return null;
  }
  try {
    const { rows } = await client.query<{ n: string }>(`SELECT count(*) AS n FROM stores`);
    return Number(rows[0]?.n ?? 0);
  } catch {
    return 0;
  } finally {
    await client.end();
  }
}

async function ensureDatabase(url: string): Promise<void> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  target.pathname = '/postgres';
  const admin = new pg.Client({ connectionString: target.toString() });
  await admin.connect();
  try {
    const { rowCount } = await admin.query(`SELECT 1 FROM pg_database WHERE datname = $1`, [name]);
    if (!rowCount) await admin.query(`CREATE DATABASE ${admin.escapeIdentifier(name)}`);
  } finally {
    await admin.end();
  }
}

/** Seeds (about 15 min and 21 GB on the 2-core machine) unless the catalog is already there. */
export async function seedOrReuse(
  url: string,
  log: (line: string) => void,
): Promise<'reused' | 'seeded'> {
  const existing = await storeCount(url);
  if (existing !== null && existing >= BENCH_STORES) {
    log(`reusing ${existing.toLocaleString('en-US')} stores at ${url}`);
    return 'reused';
  }
  if (existing)
    throw new Error(
      `${url} holds ${existing} stores, not ${BENCH_STORES}: drop it or point BENCH_DATABASE_URL elsewhere`,
    );
  await ensureDatabase(url);
  log(`seeding ${BENCH_STORES.toLocaleString('en-US')} stores into ${url} (about 15 minutes)`);
  const run = spawnSync(
    'npx',
    ['tsx', 'app/cli/seed.ts', '--stores', String(BENCH_STORES), '--database-url', url],
    { stdio: 'inherit' },
  );
  if (run.status !== 0) throw new Error(`the seeder failed (exit ${run.status})`);
  return 'seeded';
}

export async function sampleCatalog(url: string): Promise<CatalogSample> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    // setseed + ORDER BY random() over a block sample: the same sample shape every run, cheap at 1M rows
    const stores = await client.query<{
      domain: string;
      id: number;
      legacyId: string | null;
      name: string;
    }>(
      `SELECT domain, id, legacy_id AS "legacyId", name FROM stores TABLESAMPLE SYSTEM (0.2) REPEATABLE (7) LIMIT 400`,
    );
    const verticals = await client.query<{ v: string }>(
      `SELECT vertical AS v FROM stores TABLESAMPLE SYSTEM (1) REPEATABLE (7) WHERE vertical IS NOT NULL GROUP BY 1 ORDER BY count(*) DESC LIMIT 12`,
    );
    const countries = await client.query<{ c: string }>(
      `SELECT country_code AS c FROM stores TABLESAMPLE SYSTEM (1) REPEATABLE (7) WHERE country_code IS NOT NULL GROUP BY 1 ORDER BY count(*) DESC LIMIT 8`,
    );
    const titles = await client.query<{ title: string }>(
      // every 20th title of a 0.2% block sample: titles from many stores, not a few stores' catalogs
      `SELECT title FROM (SELECT title, row_number() OVER () AS n FROM products TABLESAMPLE SYSTEM (0.2) REPEATABLE (7)) sampled
        WHERE n % 20 = 0 LIMIT 600`,
    );
    const apps = await client.query<{ slug: string }>(
      `SELECT slug FROM apps ORDER BY install_count DESC, slug LIMIT 8`,
    );
    return {
      stores: stores.rows.map(({ domain, id, legacyId }) => ({ domain, id, legacyId })),
      storeQueries: searchQueries(stores.rows, QUERIES_PER_KIND.stores).map((query) => query.q),
      verticals: verticals.rows.map((r) => r.v),
      countries: countries.rows.map((r) => r.c.trim()),
      titleQueries: titleQueries(
        titles.rows.map((r) => r.title),
        QUERIES_PER_KIND.titles,
      ).map((query) => query.q),
      apps: apps.rows.map((r) => r.slug),
    };
  } finally {
    await client.end();
  }
}
