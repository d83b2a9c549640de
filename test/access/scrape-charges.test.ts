// POST /v1/scrapes/bulk costs one scrapeRequests unit per URL, charged once the body is known, the
// same as Mutation.requestScrapesBulk; a bulk the bucket cannot cover queues nothing.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateJobQueue } from '../../src/platform/jobs/job-queue.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { bearer, mintKey, startAccessServer, type AccessServer } from './access-server.ts';

const LIMITS = { starter: { perMinute: 1_000, daily: { scrapeRequests: 5 } } };

describe('charging scrape requests per URL', () => {
  let db: TestDatabase;
  let server: AccessServer;
  beforeAll(async () => {
    db = await createTestDatabase();
    server = await startAccessServer(db.url, { PLAN_LIMITS_JSON: JSON.stringify(LIMITS) });
    await migrateJobQueue(server.services.db.pool);
  });
  afterAll(async () => {
    await server?.close();
    await db?.drop();
  });

  const domains = (n: number) =>
    Array.from({ length: n }, () => `shop-${randomBytes(4).toString('hex')}.example`);
  const post = (url: string, key: string, payload: object) =>
    server.app.inject({ method: 'POST', url, headers: bearer(key), payload });
  const bulk = (key: string, urls: string[]) => post('/v1/scrapes/bulk', key, { urls });
  const graphqlBulk = (key: string, urls: string[]) =>
    post('/graphql', key, {
      query: 'mutation ($urls: [String!]!) { requestScrapesBulk(urls: $urls) { outcome } }',
      variables: { urls },
    });
  const scrapeRemaining = (headers: Record<string, unknown>) =>
    /"scrapeRequests";r=(\d+);/.exec(String(headers.ratelimit))?.[1];
  const queuedFor = async (accountExternalId: string) => {
    const { rows } = await server.services.db.pool.query<{ count: string }>(
      'SELECT count(*) FROM scrape_requests r JOIN accounts a ON a.id = r.account_id WHERE a.external_id = $1',
      [accountExternalId],
    );
    return Number(rows[0]!.count);
  };

  it('charges a bulk of 3 URLs three units, and refuses a bulk larger than what is left without queuing any of it', async () => {
    const key = await mintKey(server, { accountExternalId: 'bulk-acct' });
    const first = await bulk(key, domains(3));
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().counts.queued).toBe(3);
    expect(scrapeRemaining(first.headers)).toBe('2');

    const refused = await bulk(key, domains(3));
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error).toMatchObject({
      code: 'rate_limited',
      details: { bucket: 'scrapeRequests', limit: 5, window: 'day' },
    });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(60);
    expect(await queuedFor('bulk-acct')).toBe(3);

    // the refusal was taken back: exactly the 2 units left still serve a bulk of 2, and nothing after it
    const rest = await bulk(key, domains(2));
    expect(rest.statusCode).toBe(200);
    expect(scrapeRemaining(rest.headers)).toBe('0');
    expect((await post('/v1/scrapes', key, { domain: domains(1)[0]! })).statusCode).toBe(429);
    expect(await queuedFor('bulk-acct')).toBe(5);
  });

  it('answers a malformed bulk body with bad_request and charges nothing for it', async () => {
    const key = await mintKey(server, { accountExternalId: 'malformed-acct' });
    const tooMany = await bulk(key, domains(11));
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().error).toMatchObject({
      code: 'bad_request',
      details: { parameter: 'urls' },
    });
    const unknownField = await post('/v1/scrapes/bulk', key, {
      urls: domains(1),
      priority: 'high',
    });
    expect(unknownField.json().error).toMatchObject({
      code: 'bad_request',
      details: { parameter: 'priority' },
    });

    const whole = await bulk(key, domains(5));
    expect(whole.statusCode, 'the full bucket is still there').toBe(200);
    expect(scrapeRemaining(whole.headers)).toBe('0');
  });

  it('charges REST and GraphQL the same for the same bulk', async () => {
    const viaGraphql = await graphqlBulk(
      await mintKey(server, { accountExternalId: 'graphql-acct' }),
      domains(3),
    );
    expect(viaGraphql.json().errors).toBeUndefined();
    const viaRest = await bulk(
      await mintKey(server, { accountExternalId: 'rest-acct' }),
      domains(3),
    );
    expect(viaRest.statusCode).toBe(200);
    expect(scrapeRemaining(viaGraphql.headers)).toBe('2');
    expect(scrapeRemaining(viaRest.headers)).toBe('2');
    expect([await queuedFor('graphql-acct'), await queuedFor('rest-acct')]).toEqual([3, 3]);
  });
});
