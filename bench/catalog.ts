// The 1M-store catalog the bench runs on: reused when it already holds the stores, seeded with the
// project's own seeder otherwise; then a sample of real values (domains, names, verticals, product
// words) to rotate through, so requests do not all hit one cached row.
import { spawnSync } from 'node:child_process';
import pg from 'pg';

/** the catalog size the bench runs on; BENCH_STORES lowers it for trying the harness on a small catalog */
export const BENCH_STORES = Number(process.env.BENCH_STORES ?? 1_000_000);

export interface CatalogSample {
  stores: Array<{ domain: string; id: number; legacyId: string | null }>;
  nameWords: string[];
  verticals: string[];
  countries: string[];
  titleWords: string[];
}

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
export async function seedOrReuse(url: string, log: (line: string) => void): Promise<'reused' | 'seeded'> {
  const existing = await storeCount(url);
  if (existing !== null && existing >= BENCH_STORES) {
    log(`reusing ${existing.toLocaleString('en-US')} stores at ${url}`);
    return 'reused';
  }
  if (existing) throw new Error(`${url} holds ${existing} stores, not ${BENCH_STORES}: drop it or point BENCH_DATABASE_URL elsewhere`);
  await ensureDatabase(url);
  log(`seeding ${BENCH_STORES.toLocaleString('en-US')} stores into ${url} (about 15 minutes)`);
  const run = spawnSync('npx', ['tsx', 'src/seed/cli.ts', '--stores', String(BENCH_STORES), '--database-url', url], { stdio: 'inherit' });
  if (run.status !== 0) throw new Error(`the seeder failed (exit ${run.status})`);
  return 'seeded';
}

export async function sampleCatalog(url: string): Promise<CatalogSample> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    // setseed + ORDER BY random() over a block sample: the same sample shape every run, cheap at 1M rows
    const stores = await client.query<{ domain: string; id: number; legacyId: string | null; name: string }>(
      `SELECT domain, id, legacy_id AS "legacyId", name FROM stores TABLESAMPLE SYSTEM (0.2) REPEATABLE (7) LIMIT 400`,
    );
    const verticals = await client.query<{ v: string }>(
      `SELECT vertical AS v FROM stores TABLESAMPLE SYSTEM (1) REPEATABLE (7) WHERE vertical IS NOT NULL GROUP BY 1 ORDER BY count(*) DESC LIMIT 12`,
    );
    const countries = await client.query<{ c: string }>(
      `SELECT country_code AS c FROM stores TABLESAMPLE SYSTEM (1) REPEATABLE (7) WHERE country_code IS NOT NULL GROUP BY 1 ORDER BY count(*) DESC LIMIT 8`,
    );
    const titles = await client.query<{ title: string }>(
      `SELECT title FROM products TABLESAMPLE SYSTEM (0.01) REPEATABLE (7) LIMIT 200`,
    );
    const words = (texts: string[]) =>
      [...new Set(texts.flatMap((t) => t.split(/[^A-Za-z]+/)).filter((w) => w.length >= 4).map((w) => w.toLowerCase()))].slice(0, 60);
    return {
      stores: stores.rows.map(({ domain, id, legacyId }) => ({ domain, id, legacyId })),
      nameWords: words(stores.rows.map((r) => r.name)),
      verticals: verticals.rows.map((r) => r.v),
      countries: countries.rows.map((r) => r.c.trim()),
      titleWords: words(titles.rows.map((r) => r.title)),
    };
  } finally {
    await client.end();
  }
}
