// A callbackUrl whose host is a loopback name by definition is refused at the door (bad_request,
// nothing queued), without resolving it. (Public names pass: test/reliability/security/ssrf.test.ts.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { startAccessServer, type AccessServer } from '../access/access-server.ts';

describe('callback host names that mean this machine', () => {
  let db: TestDatabase;
  let server: AccessServer;
  beforeAll(async () => {
    db = await createTestDatabase();
    server = await startAccessServer(db.url, {
      WEBHOOK_SIGNING_SECRET: `whsec_${Buffer.alloc(32, 7).toString('base64')}`,
    });
  });
  afterAll(async () => {
    await server?.close();
    await db?.drop();
  });
  const order = (callbackUrl: string) =>
    server.app.inject({
      method: 'POST',
      url: '/v1/scrapes',
      payload: { domain: 'new-store.example', callbackUrl },
    });
  const queued = async () =>
    Number(
      (await server.services.db.pool.query('SELECT count(*) AS n FROM scrape_requests')).rows[0].n,
    );

  it.each([
    'https://LOCALHOST./hook',
    'https://localhost/hook',
    'https://hooks.localhost/hook',
    'https://A.B.LocalHost./hook',
    'https://ip6-localhost/hook',
  ])('refuses %s with bad_request naming callbackUrl, queueing nothing', async (callbackUrl) => {
    const before = await queued();
    const response = await order(callbackUrl);
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().error).toMatchObject({
      code: 'bad_request',
      details: {
        parameter: 'callbackUrl',
        rule: 'must not name this machine (localhost, *.localhost)',
      },
    });
    expect(await queued()).toBe(before);
  });
});
