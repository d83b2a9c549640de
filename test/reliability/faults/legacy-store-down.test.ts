// Fault: the legacy store (MongoDB) is unreachable, under a running gateway or when a gateway
// starts. Store profiles and lists are still served from the structured store; what only the
// legacy store holds (screenshot, emails) is absent and `sources` lacks its entry; nothing answers
// 500; health reports the legacy store down; once it answers again, its data is back. The MongoDB
// is the project's wire-protocol test server (test/support/mongo-wire-server) driven by the real
// driver, reached through a TCP gate the test takes down (new connections reset, open ones cut) or
// stalls (a partition: nothing answers, nothing is closed).
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../../../app/server.ts';
import { loadCatalogFixture } from '../../support/catalog-fixture.ts';
import { createTestDatabase, type TestDatabase } from '../../support/database.ts';
import {
  startMongoWireServer,
  type MongoWireServer,
} from '../../support/mongo-wire-server/index.ts';
import { openServicesOn, type OpenedServices } from '../../support/open-services.ts';
import { pollUntil } from '../../support/poll.ts';
import { createTcpGate, type TcpGate } from '../support/tcp-gate.ts';

const WITH_LEGACY = ['postgres:stores', 'mongo:store_summaries', 'postgres:traffic_monthly'];
const WITHOUT_LEGACY = ['postgres:stores', 'postgres:traffic_monthly'];
const CONNECT_TIMEOUT_MS = 1_500;
const HEARTBEAT_MS = 500;
const PROFILE_QUERY =
  '{ store(domain: "acme-apparel.com") { domain name screenshotUrl emails sources } }';

let db: TestDatabase;
let mongo: MongoWireServer;
let gate: TcpGate;
const gateways: Array<{ app: FastifyInstance; opened: OpenedServices }> = [];

beforeAll(async () => {
  [db, mongo] = await Promise.all([createTestDatabase(), startMongoWireServer()]);
  gate = await createTcpGate(Number(new URL(mongo.url).port));
  // the catalog every test reads, written through a gateway's own services while the gate is up
  await gate.up();
  const loader = await startGateway();
  await loadCatalogFixture(loader.opened.services.db.pool, loader.opened.services.legacy);
});
afterAll(async () => {
  for (const { app, opened } of gateways) {
    await app.close();
    await opened.close();
  }
  await gate?.close();
  await mongo?.close();
  await db?.drop();
});

async function startGateway() {
  const opened = await openServicesOn(db.url, {
    MONGODB_URL: `mongodb://127.0.0.1:${gate.port}`,
    MONGODB_DB: 'reliability',
    // the response cache would answer a repeated request without reading any backend
    RESPONSE_CACHE_TTL_MS: '0',
    // the driver's timeouts, shorter than in production so the outages are short; what is checked
    // (bounded, never a hang; back once it answers) does not depend on their values
    MONGODB_CONNECT_TIMEOUT_MS: String(CONNECT_TIMEOUT_MS),
    MONGODB_HEARTBEAT_MS: String(HEARTBEAT_MS),
  });
  const app = await buildServer(opened.services);
  gateways.push({ app, opened });
  const get = async (url: string) => {
    const started = Date.now();
    const response = await app.inject({ method: 'GET', url });
    return { status: response.statusCode, body: response.json(), ms: Date.now() - started };
  };
  return { app, opened, get };
}

/** within: how long a profile may take while the legacy store is unreachable */
async function expectServedWithoutLegacy(
  gateway: Awaited<ReturnType<typeof startGateway>>,
  within = 8_000,
) {
  const profile = await gateway.get('/v1/stores/acme-apparel.com');
  expect(profile.status).toBe(200);
  expect(profile.body).toMatchObject({
    domain: 'acme-apparel.com',
    name: 'Acme Apparel',
    // the structured store's own copy of the legacy id stays; what only the legacy store holds is absent
    legacyId: 'a0a0a0a0a0a0a0a0a0a0a001',
    screenshotUrl: null,
    emails: [],
    sources: WITHOUT_LEGACY,
  });
  // bounded by the driver's timeouts, never a hang
  expect(profile.ms).toBeLessThan(within);

  const list = await gateway.get('/v1/stores?countryCode=US&limit=5');
  expect(list.status).toBe(200);
  expect(list.body.data.map((s: { domain: string }) => s.domain)).toContain('acme-apparel.com');

  const graphql = await gateway.app.inject({
    method: 'POST',
    url: '/graphql',
    payload: { query: PROFILE_QUERY },
  });
  expect(graphql.statusCode).toBe(200);
  expect(graphql.json().errors).toBeUndefined();
  expect(graphql.json()).toMatchObject({
    data: {
      store: {
        domain: 'acme-apparel.com',
        name: 'Acme Apparel',
        screenshotUrl: null,
        emails: [],
        sources: WITHOUT_LEGACY,
      },
    },
  });

  const health = await gateway.get('/v1/health');
  expect(health.status).toBe(200);
  expect(health.body.status).toBe('degraded');
  expect(health.body.backends.legacy).toMatchObject({ ok: false, backend: 'mongo' });
  expect(health.body.backends.structured.ok).toBe(true);
}

/** the profile once it has the legacy data again; while it has not, what health says of the legacy store (for a failure's message) */
const legacyIsBack = (gateway: Awaited<ReturnType<typeof startGateway>>) =>
  pollUntil(
    async () => {
      const profile = await gateway.get('/v1/stores/acme-apparel.com');
      const back = profile.status === 200 && profile.body.sources.includes('mongo:store_summaries');
      return {
        ...profile,
        legacyHealth: back ? undefined : (await gateway.get('/v1/health')).body.backends?.legacy,
      };
    },
    (r) => r.legacyHealth === undefined,
    20_000,
    500,
  );

describe('the legacy store is unavailable', () => {
  it('under a running gateway: profiles come from PostgreSQL alone, then the legacy data returns with it', async () => {
    await gate.up();
    const gateway = await startGateway();
    const up = await gateway.get('/v1/stores/acme-apparel.com');
    expect(up.status).toBe(200);
    expect(up.body.sources).toEqual(WITH_LEGACY);
    expect(up.body.screenshotUrl).toBe('https://shots.example/acme.png');

    await gate.down();
    await expectServedWithoutLegacy(gateway);
    expect(gateway.opened.logLines.some((line) => line.includes('legacy store unavailable'))).toBe(
      true,
    );

    await gate.up();
    const back = await legacyIsBack(gateway);
    expect(back.body.screenshotUrl).toBe('https://shots.example/acme.png');
  });

  it('when a gateway starts: it starts and serves without it, and picks it up once it answers', async () => {
    await gate.down();
    const gateway = await startGateway();
    expect(
      gateway.opened.logLines.some((line) => line.includes('legacy store unreachable at start')),
    ).toBe(true);
    await expectServedWithoutLegacy(gateway);

    await gate.up();
    const back = await legacyIsBack(gateway);
    expect(back.body.sources).toEqual(WITH_LEGACY);
  });

  it('through a partition (nothing answers, nothing is closed): served without it within seconds, and its data is back soon after', async () => {
    await gate.up();
    const gateway = await startGateway();
    expect((await gateway.get('/v1/stores/acme-apparel.com')).body.sources).toEqual(WITH_LEGACY);

    // a read waiting on a silent connection is released when the driver's check of the server
    // times out: the next heartbeat plus connectTimeoutMS, then the driver's one retry waits for a
    // server (connectTimeoutMS again). With the driver's default 30 s check the profile took over
    // 35 s, and the server stayed unknown for as long after the partition healed.
    await gate.stall();
    await expectServedWithoutLegacy(gateway, 15_000);

    await gate.up();
    const back = await legacyIsBack(gateway);
    expect(back.body.screenshotUrl).toBe('https://shots.example/acme.png');
  });
});
