// Fault: the legacy store (MongoDB) is unreachable, under a running gateway or when a gateway
// starts. Store profiles and lists are still served from the structured store; what only the
// legacy store holds (screenshot, emails) is absent and `sources` lacks its entry; nothing answers
// 500; health reports the legacy store down; once it answers again, its data is back. The MongoDB
// is the project's wire-protocol test server (test/support/mongo-wire-server) driven by the real
// driver, reached through a TCP gate the test takes down (connections refused, open ones cut).
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../../../app/server.ts';
import { loadCatalogFixture } from '../../support/catalog-fixture.ts';
import { createTestDatabase, type TestDatabase } from '../../support/database.ts';
import { startMongoWireServer, type MongoWireServer } from '../../support/mongo-wire-server/index.ts';
import { openServicesOn, type OpenedServices } from '../../support/open-services.ts';
import { pollUntil } from '../support/http.ts';
import { createTcpGate, type TcpGate } from '../support/tcp-gate.ts';

const WITH_LEGACY = ['postgres:stores', 'mongo:store_summaries', 'postgres:traffic_monthly'];
const WITHOUT_LEGACY = ['postgres:stores', 'postgres:traffic_monthly'];
const PROFILE_QUERY = '{ store(domain: "acme-apparel.com") { domain name screenshotUrl emails sources } }';

let db: TestDatabase;
let mongo: MongoWireServer;
let gate: TcpGate;
const gateways: Array<{ app: FastifyInstance; opened: OpenedServices }> = [];

beforeAll(async () => {
  [db, mongo] = await Promise.all([createTestDatabase(), startMongoWireServer()]);
  gate = await createTcpGate(Number(new URL(mongo.url).port));
});
afterAll(async () => {
  for (const { app, opened } of gateways) {
    await app.close();
    await opened.close();
  }
  await gate?.down();
  await mongo?.close();
  await db?.drop();
});

async function startGateway() {
  const opened = await openServicesOn(db.url, {
    MONGODB_URL: `mongodb://127.0.0.1:${gate.port}`,
    MONGODB_DB: 'reliability',
    // the response cache would answer a repeated request without reading any backend
    RESPONSE_CACHE_TTL_MS: '0',
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

async function expectServedWithoutLegacy(gateway: Awaited<ReturnType<typeof startGateway>>) {
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
  // bounded by the driver's server selection timeout (5 s), never a hang
  expect(profile.ms).toBeLessThan(8_000);

  const list = await gateway.get('/v1/stores?countryCode=US&limit=5');
  expect(list.status).toBe(200);
  expect(list.body.data.map((s: { domain: string }) => s.domain)).toContain('acme-apparel.com');

  const graphql = await gateway.app.inject({ method: 'POST', url: '/graphql', payload: { query: PROFILE_QUERY } });
  expect(graphql.statusCode).toBe(200);
  expect(graphql.json()).toEqual({
    data: { store: { domain: 'acme-apparel.com', name: 'Acme Apparel', screenshotUrl: null, emails: [], sources: WITHOUT_LEGACY } },
  });

  const health = await gateway.get('/v1/health');
  expect(health.status).toBe(200);
  expect(health.body.status).toBe('degraded');
  expect(health.body.backends.legacy).toMatchObject({ ok: false, backend: 'mongo' });
  expect(health.body.backends.structured.ok).toBe(true);
}

const legacyIsBack = (gateway: Awaited<ReturnType<typeof startGateway>>) =>
  pollUntil(() => gateway.get('/v1/stores/acme-apparel.com'), (r) => r.status === 200 && r.body.sources.includes('mongo:store_summaries'), 20_000, 500);

describe('the legacy store is unavailable', () => {
  it('under a running gateway: profiles come from PostgreSQL alone, then the legacy data returns with it', async () => {
    await gate.up();
    const gateway = await startGateway();
    await loadCatalogFixture(gateway.opened.services.db.pool, gateway.opened.services.legacy);
    const up = await gateway.get('/v1/stores/acme-apparel.com');
    expect(up.status).toBe(200);
    expect(up.body.sources).toEqual(WITH_LEGACY);
    expect(up.body.screenshotUrl).toBe('https://shots.example/acme.png');

    await gate.down();
    await expectServedWithoutLegacy(gateway);
    expect(gateway.opened.logLines.some((line) => line.includes('legacy store unavailable'))).toBe(true);

    await gate.up();
    const back = await legacyIsBack(gateway);
    expect(back.body.screenshotUrl).toBe('https://shots.example/acme.png');
  });

  it('when a gateway starts: it starts and serves without it, and picks it up once it answers', async () => {
    await gate.down();
    const gateway = await startGateway();
    expect(gateway.opened.logLines.some((line) => line.includes('legacy store unreachable at start'))).toBe(true);
    await expectServedWithoutLegacy(gateway);

    await gate.up();
    const back = await legacyIsBack(gateway);
    expect(back.body.sources).toEqual(WITH_LEGACY);
  });
});
