// The warm-up before the first request: it must run the statements a real search runs (so the
// connections it warms have read the search indexes and planned those shapes), on the catalog's
// own words, and change nothing; and send a caller's first requests through the server, so the first
// real one finds that code run before.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type pg from 'pg';
import { warmUp } from '../../app/warm-up.ts';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { accessOf, buildServer } from '../../app/server.ts';
import { createSeededServices } from '../support/seeded-server.ts';
import type { CatalogTestServices } from '../support/test-services.ts';

/** the route a warm-up request was sent to: its path, a store's domain read as {domain} */
const routeOf = (options: InjectOptions) =>
  String(options.url)
    .split('?')[0]!
    .replace(/^\/v1\/stores\/.+$/, '/v1/stores/{domain}');

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
        expect(text, table).toMatch(/search_terms && (\(SELECT )?\$\d+::text\[\]/);
    }
    expect((await pool.query('SELECT id, last_used_at FROM api_keys ORDER BY id')).rows).toEqual(
      keysBefore.rows,
    );
  });

  it('sends the search routes, a store profile and a store card through the server, with data, on a credential that ends with it', async () => {
    const app = await buildServer(test.services);
    try {
      const sent: Array<{ options: InjectOptions; response: LightMyRequestResponse }> = [];
      const inject = app.inject.bind(app);
      vi.spyOn(app, 'inject').mockImplementation((async (options: InjectOptions) => {
        const response = await inject(options);
        sent.push({ options, response });
        return response;
      }) as never);
      const logger = { debug: vi.fn(), warn: vi.fn(), info: vi.fn(), error: vi.fn() };
      await warmUp(test.services, logger as never, { app, access: accessOf(app)! });
      expect(logger.warn).not.toHaveBeenCalled();
      expect(
        sent.map(({ options, response }) => [
          options.method,
          routeOf(options),
          response.statusCode,
        ]),
      ).toEqual([
        ['GET', '/v1/stores', 200],
        ['GET', '/v1/products', 200],
        ['GET', '/v1/stores/{domain}', 200],
        ['POST', '/graphql', 200],
      ]);
      // the log names them as the warm-up's
      expect(sent.map(({ response }) => response.headers['x-request-id'])).toEqual([
        'warm-up-1',
        'warm-up-2',
        'warm-up-3',
        'warm-up-4',
      ]);
      const [stores, products, profile, card] = sent.map(({ response }) => response.json());
      expect(stores.data.length).toBeGreaterThan(0);
      expect(products.data.length).toBeGreaterThan(0);
      expect(profile.domain).toBe(stores.data[0].domain);
      expect(card.data.store.domain).toBe(stores.data[0].domain);
      expect(card.errors).toBeUndefined();

      // the credential the warm-up sent names no one now: a caller presenting it from outside is refused
      vi.restoreAllMocks();
      const replayed = await app.inject({
        method: 'GET',
        url: '/v1/stores?limit=1',
        headers: sent[0]!.options.headers as Record<string, string>,
        remoteAddress: '203.0.113.9',
      });
      expect(replayed.statusCode).toBe(401);
    } finally {
      await app.close();
    }
  });
});
