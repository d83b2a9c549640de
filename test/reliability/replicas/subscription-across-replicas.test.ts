// Two replicas as deployed: two gateway processes (`tsx app/main.ts`) on one PostgreSQL and one
// Redis. Replica A runs no job worker; replica B runs one. A dashboard subscribed over WebSocket
// (graphql-ws) on A follows a scrape requested on A to its end: the work is done by B's worker and
// the status events reach A through Redis. Shared rate limits across two such processes are proven
// in test/access/two-processes.test.ts; the in-process pair over SSE in test/scrapes/live-status.test.ts.
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../support/database.ts';
import {
  startFixtureStorefronts,
  type FixtureStorefronts,
} from '../../scrapes/support/fixture-storefronts.ts';
import { startGatewayProcess, type GatewayProcess } from '../support/gateway-process.ts';
import { postJson } from '../support/http.ts';
import { skipWithout } from '../../support/skip-without.ts';

const REDIS_URL = process.env.REDIS_URL;

describe.skipIf(skipWithout(REDIS_URL))(
  'a subscription on one replica sees a scrape run by the other (needs REDIS_URL)',
  () => {
    let db: TestDatabase;
    let fixtures: FixtureStorefronts;
    let replicaA: GatewayProcess;
    let replicaB: GatewayProcess;
    let client: Client | undefined;

    beforeAll(async () => {
      [db, fixtures] = await Promise.all([createTestDatabase(), startFixtureStorefronts()]);
      const shared = {
        DATABASE_URL: db.url,
        REDIS_URL: REDIS_URL!,
        EGRESS_OVERRIDES: fixtures.overrides,
        EGRESS_HOST_INTERVAL_MS: '0',
      };
      // one after the other: both would run the same (idempotent, locked) migrations at start
      replicaA = await startGatewayProcess({ ...shared, WORKER_IN_PROCESS: 'false' });
      replicaB = await startGatewayProcess({ ...shared, WORKER_IN_PROCESS: 'true' });
    });
    afterAll(async () => {
      await client?.dispose();
      await Promise.all([replicaA?.stop(), replicaB?.stop()]);
      await fixtures?.close();
      await db?.drop();
    });

    it("streams the scrape's statuses to the end over WebSocket on the replica without a worker", async () => {
      fixtures.hold('/'); // the job waits in validating until the subscription is open
      const requested = await postJson(`${replicaA.baseUrl}/v1/scrapes`, { domain: 'shop-a.test' });
      expect(requested.status).toBe(202);
      const id = requested.body.id as string;

      client = createClient({
        url: `${replicaA.baseUrl.replace('http', 'ws')}/graphql`,
        webSocketImpl: WebSocket,
        retryAttempts: 0,
      });
      const statuses: string[] = [];
      const ended = new Promise<void>((resolve, reject) => {
        client!.subscribe<{ scrapeStatus: { id: string; status: string } }>(
          {
            query: 'subscription ($id: ID!) { scrapeStatus(id: $id) { id status } }',
            variables: { id },
          },
          {
            next: (result) => {
              if (result.errors) return reject(new Error(JSON.stringify(result.errors)));
              const status = result.data!.scrapeStatus.status;
              statuses.push(status);
              if (status === 'DONE' || status === 'FAILED') resolve();
            },
            error: reject,
            complete: resolve,
          },
        );
      });
      // the first event is the record read after subscribing: from then on, no event can be missed
      await expect.poll(() => statuses.length, { timeout: 20_000 }).toBeGreaterThan(0);
      fixtures.release();
      await Promise.race([
        ended,
        new Promise((_, reject) =>
          setTimeout(() => reject(new Error(`statuses so far: ${statuses}`)), 30_000),
        ),
      ]);

      // the first event is the record as the subscription found it; the rest came from B's worker
      expect(statuses[0]).toMatch(/QUEUED|VALIDATING/);
      expect(statuses).toContain('SCRAPING');
      expect(statuses.at(-1)).toBe('DONE');
      expect(fixtures.requests.some((r) => r.startsWith('shop-a.test/products.json'))).toBe(true);
    });
  },
);
