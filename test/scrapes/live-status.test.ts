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

/** Reads `data:` events of an SSE response until `stop` says so. */
async function readEvents(response: Response, stop: (events: any[]) => boolean): Promise<any[]> {
  const events: any[] = [];
  for await (const event of sseEvents(response.body!)) {
    events.push(event);
    if (stop(events)) return events;
  }
  return events;
}

describe.skipIf(skipWithout(REDIS_URL))('live scrape status across replicas (needs REDIS_URL)', () => {
  let fixtures: FixtureStorefronts;
  let gateway: ScrapeHarness;
  let workerReplica: ScrapeHarness;
  let baseUrl: string;

  beforeAll(async () => {
    fixtures = await startFixtureStorefronts();
    const pubsubPrefix = `scrape-test-${randomBytes(4).toString('hex')}:`;
    const env = { EGRESS_OVERRIDES: fixtures.overrides, EGRESS_TIMEOUT_MS: '10000' };
    gateway = await startScrapeHarness({ env, redisUrl: REDIS_URL, pubsubPrefix, worker: false });
    workerReplica = await startScrapeHarness({ env, redisUrl: REDIS_URL, pubsubPrefix, databaseUrl: gateway.databaseUrl });
    await gateway.app.listen({ host: '127.0.0.1', port: 0 });
    baseUrl = `http://127.0.0.1:${(gateway.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await workerReplica?.close();
    await gateway?.close();
    await fixtures?.close();
  });

  it('streams queued, validating, scraping and done to a subscriber on the other replica', async () => {
    fixtures.hold('/'); // keeps the job in validating until the subscription is open
    const { body } = await gateway.post('/v1/scrapes', { domain: 'shop-a.test' });
    const id = body.id as string;
    const recent = fetch(`${baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ query: 'subscription { recentScrapes { id status } }' }),
    });
    const response = await fetch(`${baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ query: 'subscription ($id: ID!) { scrapeStatus(id: $id) { id status } }', variables: { id } }),
    });
    expect(response.status).toBe(200);
    const recentEvents = recent.then((r) => readEvents(r, (events) => events.some((e) => e.data?.recentScrapes?.status === 'done')));
    const events = readEvents(response, (list) => ['done', 'failed'].includes(list.at(-1)?.data?.scrapeStatus?.status));
    await new Promise((resolve) => setTimeout(resolve, 300));
    fixtures.release();

    const statuses = (await events).map((e) => e.data.scrapeStatus.status);
    // the first event is the record as it was when the subscription started (queued or validating)
    expect(statuses.at(-1)).toBe('done');
    expect(statuses).toContain('scraping');
    expect(statuses.slice(0, 1)).toEqual([expect.stringMatching(/queued|validating/)]);
    const recentStatuses = (await recentEvents).filter((e) => e.data.recentScrapes.id === id).map((e) => e.data.recentScrapes.status);
    expect(recentStatuses).toEqual(expect.arrayContaining(['scraping', 'done']));
  });
});
