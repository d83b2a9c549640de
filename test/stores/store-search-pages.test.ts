// The statements of a sorted store list's pages. A later page (GraphQL `after`, REST `offset`) reads
// each card's relations (the newest traffic month, the app stack, the legacy summary) for the page's
// own rows, not for every row its offset passes over: page 5 costs what page 1 costs, not five times
// as much. A page within the first 100 rows of a filter of equalities is planned once per
// connection, for its values (and a later page for its offset).
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Window } from '../../src/graphql/pagination.ts';
import type { Queryable } from '../../src/platform/database/sql.ts';
import { sortedStorePage } from '../../src/stores/store-search.sql.ts';
import type { StoreReadNeeds } from '../../src/stores/store.sql.ts';
import { nodesOf, type PlanNode } from '../support/plan-nodes.ts';
import { createTestServices, type CatalogTestServices } from '../support/test-services.ts';

const STORES = 100;
let t: CatalogTestServices;

/** 100 stores of one vertical, visits 1001..1100, each with two traffic months and a legacy summary. */
async function addStores(services: CatalogTestServices['services']): Promise<void> {
  const pool = services.db.pool;
  await pool.query(
    `INSERT INTO stores (domain, name, country_code, vertical, monthly_visits, revenue_low_usd, revenue_high_usd)
     SELECT 'paged-' || n || '.com', 'Paged ' || n, 'US', 'Paged Vertical', 1000 + n, 100, 200 + n
       FROM generate_series(1, $1) AS n`,
    [STORES],
  );
  await pool.query(
    `INSERT INTO traffic_monthly (store_id, month, visits, organic_pct, paid_pct, social_pct, direct_pct, referral_pct, source)
     SELECT id, m, 1000, 40, 20, 20, 15, 5, 'similarweb'
       FROM stores CROSS JOIN (VALUES (date '2025-11-01'), (date '2025-12-01')) AS months (m)
      WHERE domain LIKE 'paged-%'`,
  );
  await services.legacy.upsertMany(
    Array.from({ length: STORES }, (_, i) => ({
      domain: `paged-${i + 1}.com`,
      legacyId: (0xc000 + i).toString(16).padStart(24, '0'),
      screenshotUrl: null,
      socials: {},
      emails: [],
    })),
  );
}

const CARD_NEEDS: StoreReadNeeds & { total: boolean } = {
  columns: 'card',
  apps: true,
  traffic: true,
  legacy: 'exists',
  extensions: [],
  total: false,
};

/** Each relation the statement read, with how many times its scans ran. */
async function scansOf(statement: {
  text: string;
  values: unknown[];
}): Promise<Map<string, number>> {
  const { rows } = await t.services.db.pool.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
    `EXPLAIN (ANALYZE, FORMAT JSON, TIMING off) ${statement.text}`,
    statement.values,
  );
  const loops = new Map<string, number>();
  for (const node of nodesOf(rows[0]!['QUERY PLAN'][0].Plan)) {
    const relation = node['Relation Name'];
    if (relation) loops.set(relation, (loops.get(relation) ?? 0) + (node['Actual Loops'] ?? 0));
  }
  return loops;
}

/** A page of cards of a vertical by visits. */
const verticalPage = (pool: Queryable, vertical: string, window: Window) =>
  sortedStorePage(
    pool,
    { vertical },
    'visits',
    window,
    CARD_NEEDS,
    t.services.legacy.colocatedTable,
  );

/** One connection of its own, so that its prepared statements can be read back. */
async function connection(): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: t.services.config.DATABASE_URL });
  await client.connect();
  return client;
}

const preparedPages = async (client: pg.Client) =>
  (
    await client.query<{ statement: string; generic_plans: number; custom_plans: number }>(
      `SELECT statement, generic_plans::int, custom_plans::int FROM pg_prepared_statements
        WHERE name LIKE 'store-page:%'`,
    )
  ).rows;

beforeAll(async () => {
  t = await createTestServices({ countStatements: true });
  await addStores(t.services);
});
afterAll(() => t?.close());

describe('a later page of a sorted store list', () => {
  const page = (offset: number) =>
    verticalPage(t.services.db.pool, 'Paged Vertical', { offset, limit: 10 });

  it('holds the rows at its offset, in order, with their relations', async () => {
    const fifth = await page(40);
    // visits 1001..1100, highest first: the 41st to 50th are 1060 down to 1051
    expect(fifth.rows.map((row) => row.monthlyVisits)).toEqual([
      1060, 1059, 1058, 1057, 1056, 1055, 1054, 1053, 1052, 1051,
    ]);
    expect(fifth.rows.map((row) => row.domain)).toEqual(
      [60, 59, 58, 57, 56, 55, 54, 53, 52, 51].map((n) => `paged-${n}.com`),
    );
    for (const row of fifth.rows) {
      expect(row.latestTraffic?.month).toBe('2025-12-01');
      expect(row.legacyExists).toBe(true);
    }
  });

  it("reads its cards' relations for its own rows only, not for the rows its offset passes over", async () => {
    t.counter!.reset();
    await page(40);
    expect(t.counter!.sent).toHaveLength(1);
    const scans = await scansOf(t.counter!.sent[0]!);
    // ten cards: one newest-month read and one legacy lookup each, whatever the offset
    expect(scans.get('traffic_monthly')).toBe(10);
    expect(scans.get('legacy_store_summaries')).toBe(10);
  });

  it('past the last row, is empty', async () => {
    expect((await page(STORES)).rows).toEqual([]);
  });
});

describe('a later page within the first 100 rows of a filter of equalities', () => {
  const laterPage = (pool: Queryable, offset: number) =>
    verticalPage(pool, 'Paged Vertical', { offset, limit: 10 });

  it('is planned once per connection for its vertical and offset, then runs on that plan', async () => {
    const client = await connection();
    try {
      for (let i = 0; i < 7; i++) {
        const page = await laterPage(client as unknown as Queryable, 20);
        // visits 1001..1100, highest first: the 21st to 30th are 1080 down to 1071
        expect(page.rows.map((row) => row.monthlyVisits)).toEqual([
          1080, 1079, 1078, 1077, 1076, 1075, 1074, 1073, 1072, 1071,
        ]);
      }
      // with its limit and offset as parameters PostgreSQL planned it at every execution
      expect(await preparedPages(client)).toMatchObject([{ generic_plans: 7, custom_plans: 0 }]);
    } finally {
      await client.end();
    }
  });

  it('past the first 100 rows, is planned per request as before', async () => {
    const client = await connection();
    try {
      const page = await laterPage(client as unknown as Queryable, 95);
      expect(page.rows.map((row) => row.monthlyVisits)).toEqual([1005, 1004, 1003, 1002, 1001]);
      expect(await preparedPages(client)).toMatchObject([{ generic_plans: 1 }]);
      expect((await laterPage(client as unknown as Queryable, 101)).rows).toEqual([]);
      expect(await preparedPages(client)).toHaveLength(1);
    } finally {
      await client.end();
    }
  });

  it('names at most 32 later pages, then runs the others as before', async () => {
    const client = await connection();
    try {
      for (let offset = 1; offset <= 40; offset++) {
        const page = await laterPage(client as unknown as Queryable, offset);
        // the (offset + 1)th highest visits first: 1100 - offset
        expect(page.rows[0]?.monthlyVisits).toBe(1100 - offset);
        expect(page.rows).toHaveLength(10);
      }
      const named = await preparedPages(client);
      expect(named.length).toBeGreaterThan(0);
      expect(named.length).toBeLessThanOrEqual(32);
    } finally {
      await client.end();
    }
  });
});

describe('a first page of a filter of equalities', () => {
  const firstPage = (pool: Queryable, vertical: string, limit = 10) =>
    verticalPage(pool, vertical, { offset: 0, limit });

  it('is planned once per connection for the vertical it asks for, then runs on that plan', async () => {
    const client = await connection();
    try {
      for (let i = 0; i < 7; i++) {
        const page = await firstPage(client as unknown as Queryable, 'Paged Vertical');
        expect(page.rows.map((row) => row.monthlyVisits).slice(0, 3)).toEqual([1100, 1099, 1098]);
      }
      // PostgreSQL plans a statement with parameters for its values at each of its first five
      // executions at least; one without parameters once
      expect(await preparedPages(client)).toMatchObject([{ generic_plans: 7, custom_plans: 0 }]);
    } finally {
      await client.end();
    }
  });

  it('answers a vertical holding quotes and an ampersand, or characters kept as parameters', async () => {
    const pool = t.services.db.pool;
    await pool.query(
      `INSERT INTO stores (domain, name, country_code, vertical, monthly_visits, revenue_low_usd, revenue_high_usd)
       VALUES ('quoted-1.com', 'Quoted 1', 'US', $1, 500, 1, 2),
              ('quoted-2.com', 'Quoted 2', 'US', $1, 400, 1, 2),
              ('slashed-1.com', 'Slashed 1', 'US', $2, 300, 1, 2)`,
      ["Kids' & Baby's (Toys)", 'Odd\\Vertical; DROP TABLE stores; --'],
    );
    const quoted = await firstPage(pool, "kids' & baby's (toys)");
    expect(quoted.rows.map((row) => row.domain)).toEqual(['quoted-1.com', 'quoted-2.com']);
    const slashed = await firstPage(pool, 'Odd\\Vertical; DROP TABLE stores; --');
    expect(slashed.rows.map((row) => row.domain)).toEqual(['slashed-1.com']);
    expect((await firstPage(pool, 'Paged Vertical')).rows).toHaveLength(10);
  });

  it('writes at most 64 sets of values into named statements, then names the filter with parameters', async () => {
    const client = await connection();
    try {
      for (let i = 0; i < 70; i++) {
        const page = await firstPage(client as unknown as Queryable, `Empty Vertical ${i}`, 7);
        expect(page.rows).toEqual([]);
      }
      const page = await firstPage(client as unknown as Queryable, 'Paged Vertical', 7);
      expect(page.rows.map((row) => row.monthlyVisits)).toEqual([
        1100, 1099, 1098, 1097, 1096, 1095, 1094,
      ]);
      const prepared = await preparedPages(client);
      const written = prepared.filter((p) =>
        /'empty vertical \d+'|'paged vertical'/i.test(p.statement),
      );
      const withParameters = prepared.filter((p) => p.statement.includes('lower($1)'));
      expect(written.length).toBeLessThanOrEqual(64);
      expect(written.length).toBeGreaterThan(0);
      expect(withParameters).toHaveLength(1);
    } finally {
      await client.end();
    }
  });
});
