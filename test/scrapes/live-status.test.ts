// Live status: a client subscribed (GraphQL over SSE) on one replica receives the status changes of
// a job that a worker beside another replica runs, through the shared Redis pub/sub.
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureStorefronts, type FixtureStorefronts } from './support/fixture-storefronts.ts';
import { startScrapeHarness, type ScrapeHarness } from './support/scrape-harness.ts';
import { sseEvents } from '../support/sse-events.ts';
import { skipWithout } from '../support/skip-without.ts';

const REDIS_URL = process.env.REDIS_URL;

/** A subscription over SSE whose events are collected as they arrive (read them any time). */
async function subscribe(baseUrl: string, query: string, variables?: Record<string, unknown>) {
  const abort = new AbortController();
  const response = await fetch(`${baseUrl}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify({ query, variables }),
    signal: abort.signal,
  });
  expect(response.status).toBe(200);
  const events: any[] = [];
  const reading = (async () => {
    for await (const event of sseEvents(response.body!)) events.push(event);
  })().catch(() => undefined);
  return {
    events,
    close: () => {
      abort.abort();
      return reading;
    },
  };
}

describe.skipIf(skipWithout(REDIS_URL))(
  'live scrape status across replicas (needs REDIS_URL)',
  () => {
    let fixtures: FixtureStorefronts;
    let gateway: ScrapeHarness;
    let workerReplica: ScrapeHarness;
    let baseUrl: string;

    beforeAll(async () => {
      fixtures = await startFixtureStorefronts();
      const pubsubPrefix = `scrape-test-${randomBytes(4).toString('hex')}:`;
      const env = { EGRESS_OVERRIDES: fixtures.overrides, EGRESS_TIMEOUT_MS: '10000' };
      gateway = await startScrapeHarness({ env, redisUrl: REDIS_URL, pubsubPrefix, worker: false });
      workerReplica = await startScrapeHarness({
        env,
        redisUrl: REDIS_URL,
        pubsubPrefix,
        databaseUrl: gateway.databaseUrl,
      });
      await gateway.app.listen({ host: '127.0.0.1', port: 0 });
      baseUrl = `http://127.0.0.1:${(gateway.app.server.address() as AddressInfo).port}`;
    });
    afterAll(async () => {
      await workerReplica?.close();
      await gateway?.close();
      await fixtures?.close();
    });

    it('streams queued, validating, scraping and done to a subscriber on the other replica', async () => {
      fixtures.hold('/'); // keeps the job in validating until the subscriptions are open
      const recent = await subscribe(
        baseUrl,
        'subscription { recentScrapes { scrapeRequestId status } }',
      );
      let status: Awaited<ReturnType<typeof subscribe>> | undefined;
      try {
        const recentOf = (id: string) =>
          recent.events
            .map((e) => e.data.recentScrapes)
            .filter((r) => r.scrapeRequestId === id)
            .map((r) => r.status);
        // the dashboard stream is live once it carries a request made after it opened: a name that never
        // resolves fails at once, and is asked again until the stream shows it
        for (let attempt = 0; ; attempt++) {
          const canary = (
            await gateway.post('/v1/scrapes', { domain: `canary-${attempt}.invalid` })
          ).body.id as string;
          const seen = await expect
            .poll(() => recentOf(canary).length, { timeout: 2_000 })
            .toBeGreaterThan(0)
            .then(
              () => true,
              () => false,
            );
          if (seen) break;
          expect(attempt, 'the recentScrapes stream never carried an event').toBeLessThan(10);
        }

        const { body } = await gateway.post('/v1/scrapes', { domain: 'shop-a.test' });
        const id = body.id as string;
        status = await subscribe(
          baseUrl,
          'subscription ($id: ID!) { scrapeStatus(id: $id) { id status } }',
          { id },
        );
        const statuses = () => status!.events.map((e) => e.data.scrapeStatus.status);
        // its first event is the record as it was when the subscription started: subscribed before it was read
        await expect.poll(() => statuses().length, { timeout: 20_000 }).toBeGreaterThan(0);
        fixtures.release();

        await expect.poll(() => statuses().at(-1), { timeout: 30_000 }).toBe('DONE');
        expect(statuses()).toContain('SCRAPING');
        expect(statuses().slice(0, 1)).toEqual([expect.stringMatching(/QUEUED|VALIDATING/)]);
        await expect
          .poll(() => recentOf(id), { timeout: 10_000 })
          .toEqual(expect.arrayContaining(['SCRAPING', 'DONE']));
      } finally {
        fixtures.release();
        await Promise.all([recent.close(), status?.close()]);
      }
    });
  },
);
