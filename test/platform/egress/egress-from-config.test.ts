import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/platform/config.ts';
import { storefrontEgress } from '../../../src/platform/egress/egress-from-config.ts';
import { createLogger } from '../../../src/platform/logger.ts';
import type { Services } from '../../../src/platform/services.ts';
import { createTestDatabase, type TestDatabase } from '../../support/database.ts';
import { pollUntil } from '../../support/poll.ts';

let db: TestDatabase;
let server: Server;
let port: number;
beforeAll(async () => {
  db = await createTestDatabase({ empty: true });
  server = createServer((_req, res) => res.writeHead(200).end('ok'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await db?.drop();
});

describe("the storefront client's host gate", () => {
  it('logs its session closed by a stopping server as one info line, without the pg client', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const logger = createLogger(
      'info',
      new Writable({
        write(chunk, _encoding, done) {
          lines.push(JSON.parse(String(chunk)));
          done();
        },
      }),
      'json',
    );
    const config = loadConfig({
      NODE_ENV: 'test',
      PUBLIC_BASE_URL: 'https://intel.test',
      EGRESS_OVERRIDES: `gate-shop.example=http://127.0.0.1:${port}`,
    });
    const services = { config, logger, db: { url: db.url } } as unknown as Services;
    const egress = storefrontEgress(services);
    expect((await egress.fetch('https://gate-shop.example/')).status).toBe(200);

    // the gate's session waits in its pool after the host's turn: the server ends it as a stopping
    // server does (57P01, "terminating connection due to administrator command")
    const admin = new pg.Client({ connectionString: db.url });
    await admin.connect();
    try {
      const { rows } = await admin.query<{ ended: boolean }>(
        `SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity
          WHERE datname = current_database() AND pid <> pg_backend_pid() AND query LIKE '%pg_advisory_unlock%'`,
      );
      expect(rows).toEqual([{ ended: true }]);
    } finally {
      await admin.end();
    }

    const gateLines = () =>
      lines.filter((line) => String(line.msg).startsWith('host gate session'));
    await pollUntil(
      async () => gateLines().length,
      (count) => count > 0,
      5_000,
      50,
    );
    expect(gateLines()).toEqual([
      expect.objectContaining({
        level: 30,
        msg: 'host gate session closed: the server is shutting down',
      }),
    ]);
    expect(JSON.stringify(lines)).not.toContain('"client"');
  });
});
