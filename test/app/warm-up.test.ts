// The warm-up before the first request: it must run the statements a real search runs (so the
// connections it warms have read the search indexes and planned those shapes), on the catalog's
// own words, and change nothing.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type pg from 'pg';
import { warmUp } from '../../app/warm-up.ts';
import { buildServer, routeRunnerOf } from '../../app/server.ts';
import type { RunRoute } from '../../rest/index.ts';
import { createSeededServices } from '../support/seeded-server.ts';
import type { CatalogTestServices } from '../support/test-services.ts';

describe('warm-up', () => {
  let test: CatalogTestServices;
  beforeAll(async () => {
    test = await createSeededServices(200, { countStatements: true });
  }, 120_000);
  afterAll(async () => {
    await test?.close();
  });

  it('searches stores and titles with words the catalog holds, reading their candidates, and writes nothing', async () => {
    const { pool } = test.services.db;
    // the pool without connect(): the warm-up then runs on it directly, and the counter sees every statement
    const counted = { query: pool.query } as pg.Pool;
    const logger = { debug: vi.fn(), warn: vi.fn(), info: vi.fn(), error: vi.fn() };
    const keysBefore = await pool.query('SELECT id, last_used_at FROM api_keys ORDER BY id');
    test.counter!.reset();

    await warmUp({ db: { ...test.services.db, pool: counted, read: counted } }, logger as never);

    expect(logger.warn).not.toHaveBeenCalled();
    // each relevance statement has candidate sources that test the matched terms: a word of no
    // catalog matches no term, and its statement reads no index of the search
    const relevance = (table: string) =>
      test.counter!.log.filter(
        (text) => text.includes('candidates AS') && text.includes(`FROM ${table} `),
      );
    for (const table of ['stores', 'products']) {
      expect(relevance(table).length, table).toBeGreaterThan(0);
      for (const text of relevance(table))
        expect(text, table).toMatch(/search_terms && \$\d+::text\[\]/);
    }
    expect((await pool.query('SELECT id, last_used_at FROM api_keys ORDER BY id')).rows).toEqual(
      keysBefore.rows,
    );
  });

  it('runs the search routes and a store profile through the route runner, as their handlers do, with data', async () => {
    const app = await buildServer(test.services);
    try {
      const runRoute = routeRunnerOf(app)!;
      const ran: Array<{ route: string; status: number; rows: number }> = [];
      const recording: RunRoute = async (route, params, context) => {
        const answer = await runRoute(route, params, context);
        const body = answer.body as { data?: unknown[]; domain?: string };
        ran.push({
          route: route.operationId,
          status: answer.status,
          rows: body.data?.length ?? (body.domain ? 1 : 0),
        });
        return answer;
      };
      const logger = { debug: vi.fn(), warn: vi.fn(), info: vi.fn(), error: vi.fn() };
      await warmUp(test.services, logger as never, recording);
      expect(logger.warn).not.toHaveBeenCalled();
      expect(ran.map(({ route, status }) => [route, status])).toEqual([
        ['searchStores', 200],
        ['searchProducts', 200],
        ['getStore', 200],
      ]);
      for (const { route, rows } of ran) expect(rows, route).toBeGreaterThan(0);
    } finally {
      await app.close();
    }
  });
});
