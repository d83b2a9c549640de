// What the log says about requests: a caller's own mistake (bad parameter, unknown store, a
// subscription to a request that does not exist) is an ordinary outcome, logged at info with its
// code and no stack. Error level is kept for what we must investigate.
import net, { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { startAccessServer, type AccessServer } from '../access/access-server.ts';

describe('request logging', () => {
  let db: TestDatabase;
  let server: AccessServer;
  beforeAll(async () => {
    db = await createTestDatabase();
    server = await startAccessServer(db.url, { LOG_LEVEL: 'info' });
  });
  afterAll(async () => {
    await server?.close();
    await db?.drop();
  });

  const linesSince = (start: number) =>
    server.logLines.slice(start).map((line) => JSON.parse(line) as Record<string, any>);

  it("logs a caller's mistakes (bad limit, unknown store, not_found on a subscription) at info, with the code and no stack", async () => {
    const start = server.logLines.length;
    expect((await server.app.inject({ method: 'GET', url: '/v1/stores?limit=0' })).statusCode).toBe(
      400,
    );
    expect(
      (await server.app.inject({ method: 'GET', url: '/v1/stores/nowhere.example' })).statusCode,
    ).toBe(404);
    const graphql = (query: string, accept = 'application/json') =>
      server.app.inject({
        method: 'POST',
        url: '/graphql',
        headers: { 'content-type': 'application/json', accept },
        payload: { query },
      });
    await graphql('{ stores(first: 1000) { totalCount } }');
    await graphql('{ store(domain: "nowhere.example") { domain } }');
    await graphql(
      'subscription { scrapeStatus(id: "00000000-0000-0000-0000-000000000000") { id } }',
      'text/event-stream',
    );
    const lines = linesSince(start);
    expect(lines.filter((line) => line.level >= 50)).toEqual([]);
    const refused = lines.filter((line) => line.msg === 'GraphQL field refused');
    // REST's unknown store runs through the same pipeline as /graphql, so it is logged the same way
    // (the bad limit never reaches it: REST refuses the parameter before anything runs)
    expect(refused.map((line) => [line.level, line.refused.code])).toEqual([
      [30, 'not_found'],
      [30, 'bad_request'],
      [30, 'not_found'],
      [30, 'not_found'],
    ]);
    expect(JSON.stringify(lines)).not.toMatch(/\\n\s+at |"stack"/);
  });

  it('logs a client that hangs up in the middle of its request body at info, with no stack: not a failure of ours', async () => {
    await server.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = server.app.server.address() as AddressInfo;
    /** sends the headers and part of the body, waits `ms` and hangs up */
    const hangUp = async (path: string, ms: number) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.on('error', () => undefined);
      // "100 Continue" says the server has the request and waits for its body
      const continued = new Promise((resolve) => socket.once('data', resolve));
      socket.write(
        `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\nExpect: 100-continue\r\n\r\n`,
      );
      expect(String(await continued)).toMatch(/^HTTP\/1\.1 100 /);
      socket.write('{"domain":');
      await new Promise((resolve) => setTimeout(resolve, ms));
      socket.destroy();
    };
    for (const path of ['/v1/scrapes', '/graphql']) {
      const start = server.logLines.length;
      // a hang-up before the body is being read leaves no trace at all; later ones reach the body
      // parser: hang up later each time until the server has logged one
      for (let ms = 0; linesSince(start).length === 0; ms += 20) {
        expect(ms, 'no hang-up was ever logged').toBeLessThan(2_000);
        await hangUp(path, ms);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const lines = linesSince(start);
      expect(
        lines.map((line) => [line.level, line.msg]),
        path,
      ).toEqual(lines.map(() => [30, 'client closed the connection during the request']));
      expect(JSON.stringify(lines)).not.toMatch(/\\n\s+at |"stack"/);
    }
  });
});
