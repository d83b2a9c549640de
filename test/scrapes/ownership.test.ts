// A scrape request belongs to the account whose key ordered it (REST or GraphQL): only that account
// reads it back; another account gets not_found. Open-dev requests belong to no account and are
// readable in open-dev mode only.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateJobQueue } from '../../src/platform/jobs/job-queue.ts';
import { bearer, mintKey, startAccessServer, type AccessServer } from '../access/access-server.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';

const newDomain = () => `shop-${randomBytes(4).toString('hex')}.example`;

async function start(): Promise<{ db: TestDatabase; server: AccessServer }> {
  const db = await createTestDatabase();
  const server = await startAccessServer(db.url);
  await migrateJobQueue(server.services.db.pool);
  return { db, server };
}

const ownerOf = async (server: AccessServer, id: string) =>
  (
    await server.services.db.pool.query<{ external_id: string | null }>(
      'SELECT a.external_id FROM scrape_requests r LEFT JOIN accounts a ON a.id = r.account_id WHERE r.id = $1',
      [id],
    )
  ).rows[0]?.external_id;

describe('scrape requests of accounts with keys', () => {
  let db: TestDatabase;
  let server: AccessServer;
  let alice: string;
  let bob: string;
  beforeAll(async () => {
    ({ db, server } = await start());
    alice = await mintKey(server, { accountExternalId: 'alice' });
    bob = await mintKey(server, { accountExternalId: 'bob' });
  });
  afterAll(async () => {
    await server?.close();
    await db?.drop();
  });

  const get = (url: string, key: string) =>
    server.app.inject({ method: 'GET', url, headers: bearer(key) });
  const graphql = (key: string, query: string, variables: object) =>
    server.app.inject({
      method: 'POST',
      url: '/graphql',
      headers: bearer(key),
      payload: { query, variables },
    });

  it('records the ordering account and shows the request to it alone over REST', async () => {
    const ordered = await server.app.inject({
      method: 'POST',
      url: '/v1/scrapes',
      headers: bearer(alice),
      payload: { domain: newDomain() },
    });
    expect(ordered.statusCode, ordered.body).toBe(202);
    const id = ordered.json().id as string;
    expect(await ownerOf(server, id)).toBe('alice');

    expect((await get(`/v1/scrapes/${id}`, alice)).json()).toMatchObject({ id, status: 'queued' });
    const foreign = await get(`/v1/scrapes/${id}`, bob);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error).toMatchObject({ code: 'not_found', details: { id } });
  });

  it('does the same for requests ordered through GraphQL, one by one or in bulk', async () => {
    const single = await graphql(
      bob,
      'mutation ($d: String!) { requestScrape(domain: $d) { scrape { scrapeRequestId } } }',
      { d: newDomain() },
    );
    const bulk = await graphql(
      bob,
      'mutation ($u: [String!]!) { requestScrapesBulk(urls: $u) { scrape { scrapeRequestId } } }',
      { u: [newDomain()] },
    );
    const ids = [
      single.json().data.requestScrape.scrape.scrapeRequestId,
      bulk.json().data.requestScrapesBulk[0].scrape.scrapeRequestId,
    ] as string[];

    for (const id of ids) {
      expect(await ownerOf(server, id)).toBe('bob');
      const read = 'query ($id: ID!) { scrapeRequest(id: $id) { scrapeRequestId } }';
      expect((await graphql(bob, read, { id })).json().data.scrapeRequest.scrapeRequestId).toBe(id);
      const foreign = (await graphql(alice, read, { id })).json();
      expect(foreign.data).toEqual({ scrapeRequest: null });
      expect(foreign.errors[0].extensions.code).toBe('not_found');
      expect(foreign.errors[0].path).toEqual(['scrapeRequest']);
      expect((await get(`/v1/scrapes/${id}`, alice)).statusCode).toBe(404);
    }
  });

  it("lists and streams only the caller account's requests to dashboards (recentScrapes)", async () => {
    const recent = 'query { recentScrapes(limit: 100) { id domain } }';
    const before = (await graphql(bob, recent, {})).json().data.recentScrapes as Array<{
      id: string;
    }>;

    // bob follows the live feed over SSE while alice and bob each order a scrape
    const address = await server.app.listen({ host: '127.0.0.1', port: 0 });
    const controller = new AbortController();
    const stream = await fetch(
      `${address}/graphql?query=${encodeURIComponent('subscription { recentScrapes { id domain } }')}`,
      {
        headers: { ...bearer(bob), accept: 'text/event-stream' },
        signal: controller.signal,
      },
    );
    expect(stream.status).toBe(200);
    const reader = stream.body!.getReader();
    const aliceDomain = newDomain();
    const bobDomain = newDomain();
    const aliceOrder = await server.app.inject({
      method: 'POST',
      url: '/v1/scrapes',
      headers: bearer(alice),
      payload: { domain: aliceDomain },
    });
    const bobOrder = await server.app.inject({
      method: 'POST',
      url: '/v1/scrapes',
      headers: bearer(bob),
      payload: { domain: bobDomain },
    });
    expect([aliceOrder.statusCode, bobOrder.statusCode]).toEqual([202, 202]);

    // events are in publish order: alice's came first, so if bob's feed leaked it, it would be seen before bob's own
    let text = '';
    while (!text.includes(bobDomain)) {
      const { value, done } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
    }
    controller.abort();
    expect(text).toContain(bobDomain);
    expect(text).not.toContain(aliceDomain);

    const after = (await graphql(bob, recent, {})).json().data.recentScrapes as Array<{
      domain: string;
    }>;
    expect(after.map((r) => r.domain)).toContain(bobDomain);
    expect(after.map((r) => r.domain)).not.toContain(aliceDomain);
    expect(after.length).toBe(before.length + 1);
    const aliceRecent = (await graphql(alice, recent, {})).json().data.recentScrapes as Array<{
      domain: string;
    }>;
    expect(aliceRecent.map((r) => r.domain)).toContain(aliceDomain);
    expect(aliceRecent.map((r) => r.domain)).not.toContain(bobDomain);
  });
});

describe('scrape requests in open-dev mode', () => {
  let db: TestDatabase;
  let server: AccessServer;
  beforeAll(async () => ({ db, server } = await start()));
  afterAll(async () => {
    await server?.close();
    await db?.drop();
  });

  it('belong to no account and are readable without a key', async () => {
    const ordered = await server.app.inject({
      method: 'POST',
      url: '/v1/scrapes',
      payload: { domain: newDomain() },
    });
    expect(ordered.statusCode, ordered.body).toBe(202);
    const id = ordered.json().id as string;
    expect(await ownerOf(server, id)).toBeNull();
    expect(
      (await server.app.inject({ method: 'GET', url: `/v1/scrapes/${id}` })).json(),
    ).toMatchObject({ id });
  });

  it("never show an account's request to an open-dev caller", async () => {
    const {
      rows: [row],
    } = await server.services.db.pool.query<{ id: string }>(
      `WITH account AS (INSERT INTO accounts (external_id, name) VALUES ('carol', 'Carol') RETURNING id)
       INSERT INTO scrape_requests (id, domain, force, account_id, created_at, updated_at)
       SELECT gen_random_uuid(), $1, false, account.id, now(), now() FROM account RETURNING id::text`,
      [newDomain()],
    );
    const read = await server.app.inject({ method: 'GET', url: `/v1/scrapes/${row!.id}` });
    expect(read.statusCode).toBe(404);
  });
});
