// The crawler's state for the operations console: Query.crawlerStatus and the live
// Subscription.crawlerStatus (over SSE, as the console reads it) show the schedule, the queue by
// kind, recent observations by outcome and the catalog's freshness; only a key carrying the
// operations:read scope may read them once keys exist (a user key is refused with 403, no key 401).
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintApiKey } from '../../src/access/api-keys.ts';
import { sseEvents } from '../support/sse-events.ts';
import { startCatalogHarness, type CatalogHarness } from './support/catalog-harness.ts';

let h: CatalogHarness;
let baseUrl: string;

beforeAll(async () => {
  h = await startCatalogHarness();
  await h.app.listen({ host: '127.0.0.1', port: 0 });
  baseUrl = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
});
afterAll(() => h?.close());

const STATUS = `stores { scheduled active failing vanished due inFlight }
  candidates { pending queued accepted duplicate rejected }
  queue { task waiting scheduled running failed }
  recent { minutes observations perMinute { minute ok failed } outcomes { outcome trigger count } p50Ms p99Ms }
  freshness { bucket stores }
  workers { id pid concurrency globalConcurrency seenAt }`;

const query = (headers: Record<string, string> = {}) =>
  h.app.inject({
    method: 'POST',
    url: '/graphql',
    headers: { 'content-type': 'application/json', ...headers },
    payload: { query: `{ crawlerStatus(recentMinutes: 60) { ${STATUS} } }` },
  });

const subscribe = (headers: Record<string, string> = {}) =>
  fetch(
    `${baseUrl}/graphql?query=${encodeURIComponent(`subscription { crawlerStatus { at ${STATUS} } }`)}`,
    { headers: { accept: 'text/event-stream', ...headers } },
  );

describe('crawler status', () => {
  it('shows the schedule, queue, recent observations by outcome, freshness and the workers', async () => {
    await h.offer(['changing.test', 'notshop.test']);
    await h.waitForRow(
      `SELECT 1 FROM catalog_candidates WHERE status NOT IN ('pending', 'queued') HAVING count(*) = 2`,
    );
    await h.waitForRow('SELECT 1 FROM crawler_workers');
    const response = await query();
    expect(response.statusCode).toBe(200);
    const status = response.json().data.crawlerStatus;
    expect(status.stores).toMatchObject({ scheduled: 1, active: 1, failing: 0, vanished: 0 });
    expect(status.candidates).toMatchObject({ accepted: 1, rejected: 1, pending: 0 });
    expect(status.recent.observations).toBe(2);
    expect(status.recent.outcomes).toEqual(
      expect.arrayContaining([
        { outcome: 'ok', trigger: 'discovery', count: 1 },
        { outcome: 'not_shopify', trigger: 'discovery', count: 1 },
      ]),
    );
    expect(
      status.recent.perMinute.reduce(
        (n: number, m: { ok: number; failed: number }) => n + m.ok + m.failed,
        0,
      ),
    ).toBe(2);
    expect(status.recent.p50Ms).toBeGreaterThanOrEqual(0);
    expect(status.freshness.map((b: { bucket: string }) => b.bucket)).toEqual([
      'under 1 hour',
      '1 to 24 hours',
      '1 to 3 days',
      '3 to 7 days',
      'over 7 days',
      'never',
    ]);
    expect(status.freshness[0]).toEqual({ bucket: 'under 1 hour', stores: 1 });
    expect(status.workers).toHaveLength(1);
    expect(status.workers[0]).toMatchObject({ concurrency: 2, globalConcurrency: 4 });
    for (const kind of status.queue)
      expect(Object.keys(kind)).toEqual(['task', 'waiting', 'scheduled', 'running', 'failed']);
  });

  it('drops a worker process from the workers table once it stopped cleanly', async () => {
    const second = await h.startWorker();
    await h.waitForRow('SELECT 1 FROM crawler_workers HAVING count(*) = 2');
    expect((await query()).json().data.crawlerStatus.workers).toHaveLength(2);
    await second.stop();
    const workers = (await query()).json().data.crawlerStatus.workers as Array<{ pid: number }>;
    expect(workers).toHaveLength(1);
  });

  it('counts the queue by kind of job', async () => {
    // a scrape held at the storefront: its job runs while the status is read
    h.fixtures.hold('/products.json');
    const order = await h.post('/v1/scrapes', { domain: 'shop-a.test' });
    await h.waitFor(order.body.id, ['scraping']);
    const status = (await query()).json().data.crawlerStatus;
    expect(status.queue).toEqual(
      expect.arrayContaining([expect.objectContaining({ task: 'scrape-store', running: 1 })]),
    );
    h.fixtures.release();
    await h.waitFor(order.body.id, ['done']);
  });

  it('is followed live: the current state at once, then a fresh snapshot every few seconds', async () => {
    const response = await subscribe();
    expect(response.status).toBe(200);
    const events = sseEvents(response.body!);
    const first = (await events.next()).value.data.crawlerStatus;
    const second = (await events.next()).value.data.crawlerStatus;
    expect(Date.parse(second.at) - Date.parse(first.at)).toBeGreaterThanOrEqual(4_000);
    expect(second.stores.scheduled).toBe(first.stores.scheduled);
    await events.return(undefined);
  });

  it('once keys exist: needs a key with operations:read, refuses a user key with 403 and no key with 401', async () => {
    const mint = async (scopes: string[]) =>
      (
        await mintApiKey(h.services.db.prisma, {
          accountExternalId: `ops-${scopes.join('') || 'user'}`,
          plan: 'pro',
          scopes,
        })
      ).key;
    const user = await mint([]);
    const operator = await mint(['operations:read']);

    const none = await query();
    expect(none.statusCode).toBe(401);
    const refused = await query({ authorization: `Bearer ${user}` });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().errors[0].extensions).toMatchObject({
      code: 'unauthorized',
      details: { reason: 'scope', scope: 'operations:read' },
    });
    expect(refused.json().errors[0].message).toContain('operations:read');
    const allowed = await query({ authorization: `Bearer ${operator}` });
    expect(allowed.statusCode).toBe(200);
    // changing.test, and shop-a.test since its scrape (a scrape is an observation too)
    expect(allowed.json().data.crawlerStatus.stores.scheduled).toBe(2);

    expect((await subscribe({ authorization: `Bearer ${user}` })).status).toBe(403);
    expect((await subscribe()).status).toBe(401);
    const live = await subscribe({ authorization: `Bearer ${operator}` });
    expect(live.status).toBe(200);
    const events = sseEvents(live.body!);
    expect((await events.next()).value.data.crawlerStatus.stores.scheduled).toBe(2);
    await events.return(undefined);
    // the user key still reads everything else
    expect(
      (
        await h.app.inject({
          method: 'GET',
          url: '/v1/stores/changing.test',
          headers: { authorization: `Bearer ${user}` },
        })
      ).statusCode,
    ).toBe(200);
  });
});
