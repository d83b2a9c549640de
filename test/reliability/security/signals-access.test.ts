// Signals belong to the key's account (spec 5.7) and a partner key (scope signals:read) reads but
// never writes (spec 5.8), on every Signals route the route table holds when this runs: another
// account's watch answers not_found on every route and stays as it was; the partner key GETs a
// watched domain and is refused (403, code unauthorized, details.reason scope) on every POST, PATCH and DELETE, writing nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import { catalogRoutes } from '../../../rest/routes/index.ts';
import type { RestRoute } from '../../../rest/route.ts';
import { migrateJobQueue } from '../../../src/platform/jobs/job-queue.ts';
import {
  bearer,
  mintKey,
  startAccessServer,
  type AccessServer,
} from '../../access/access-server.ts';
import { loadCatalogFixture } from '../../support/catalog-fixture.ts';
import { createTestDatabase, type TestDatabase } from '../../support/database.ts';

const WATCHED = 'acme-apparel.com';
const signalRoutes = catalogRoutes.filter((route) => route.tag === 'Signals');
/** routes about one watch, named by {domain} in the path */
const watchRoutes = signalRoutes.filter((route) => route.path.includes('{domain}'));

/** A request for `route` on the watched domain, with a body its schema accepts. */
function requestFor(route: RestRoute, headers: Record<string, string>): InjectOptions {
  const url = route.path.replace('{domain}', WATCHED);
  const body: Record<string, unknown> | undefined =
    route.method === 'PATCH' ? { status: 'paused' } : route.body ? { domain: WATCHED } : undefined;
  return {
    method: route.method,
    url,
    headers: body ? { ...headers, 'content-type': 'application/json' } : headers,
    payload: body ? JSON.stringify(body) : undefined,
  };
}

let db: TestDatabase;
let server: AccessServer;
let owner: string;
let stranger: string;
let partner: string;

async function watchesState(): Promise<string> {
  const { rows } = await server.services.db.pool.query(
    `SELECT json_agg(w ORDER BY w.id)::text AS state FROM (SELECT * FROM signals) w`,
  );
  const counts = await server.services.db.pool.query(
    `SELECT (SELECT count(*) FROM signal_probes) AS probes, (SELECT count(*) FROM tracked_variants) AS variants,
            (SELECT count(*) FROM graphile_worker._private_jobs) AS jobs`,
  );
  return `${rows[0].state} ${JSON.stringify(counts.rows[0])}`;
}

beforeAll(async () => {
  db = await createTestDatabase();
  server = await startAccessServer(db.url);
  await migrateJobQueue(server.services.db.pool);
  await loadCatalogFixture(server.services.db.pool, server.services.legacy);
  owner = await mintKey(server, { plan: 'pro', accountExternalId: 'watch-owner' });
  stranger = await mintKey(server, { plan: 'pro', accountExternalId: 'someone-else' });
  partner = await mintKey(server, {
    plan: 'pro',
    accountExternalId: 'partner-service',
    scopes: ['signals:read'],
  });
  const created = await server.app.inject({
    method: 'POST',
    url: '/v1/signals',
    headers: bearer(owner),
    payload: { domain: WATCHED },
  });
  expect(created.statusCode, created.body).toBe(201);
});
afterAll(async () => {
  await server?.close();
  await db?.drop();
});

describe('Signals routes', () => {
  it('are in the route table, reads and writes on one watch', () => {
    expect(watchRoutes.some((route) => route.method === 'GET')).toBe(true);
    expect(signalRoutes.some((route) => route.method === 'PATCH')).toBe(true);
    expect(signalRoutes.some((route) => route.method === 'DELETE')).toBe(true);
  });
});

describe("another account's watch", () => {
  it('is not_found on every route about one watch, and stays as it was', async () => {
    const before = await watchesState();
    for (const route of watchRoutes) {
      const res = await server.app.inject(requestFor(route, bearer(stranger)));
      expect(res.statusCode, `${route.method} ${route.path} ${res.body}`).toBe(404);
      expect(res.json().error.code).toBe('not_found');
    }
    expect(await watchesState()).toEqual(before);
    const own = await server.app.inject({
      method: 'GET',
      url: `/v1/signals/${WATCHED}`,
      headers: bearer(owner),
    });
    expect(own.statusCode, own.body).toBe(200);
  });

  it("never appears in the other account's lists", async () => {
    for (const route of signalRoutes.filter(
      (r) => r.method === 'GET' && !r.path.includes('{domain}'),
    )) {
      const res = await server.app.inject({
        method: 'GET',
        url: route.path,
        headers: bearer(stranger),
      });
      expect(res.statusCode, `${route.path} ${res.body}`).toBe(200);
      expect(res.body, route.path).not.toContain(WATCHED);
    }
  });
});

describe('a partner key (scope signals:read)', () => {
  it('GETs a domain already on Signals on every read route, with the answer its owner gets', async () => {
    for (const route of watchRoutes.filter((r) => r.method === 'GET')) {
      const res = await server.app.inject(requestFor(route, bearer(partner)));
      expect(res.statusCode, `${route.path} ${res.body}`).toBe(200);
      const owners = await server.app.inject(requestFor(route, bearer(owner)));
      expect(res.json(), route.path).toEqual(owners.json());
    }
  });

  it('is refused (403, unauthorized, reason scope) on every POST, PATCH and DELETE, and writes nothing', async () => {
    const writes = signalRoutes.filter((route) => route.method !== 'GET');
    expect(writes.length).toBeGreaterThan(0);
    const before = await watchesState();
    for (const route of writes) {
      const res = await server.app.inject(requestFor(route, bearer(partner)));
      expect(res.statusCode, `${route.method} ${route.path} ${res.body}`).toBe(403);
      expect(res.json().error).toMatchObject({
        code: 'unauthorized',
        details: { reason: 'scope' },
      });
    }
    // a new watch on another store is just as forbidden
    const create = await server.app.inject({
      method: 'POST',
      url: '/v1/signals',
      headers: bearer(partner),
      payload: { domain: 'glow-skin.com' },
    });
    expect(create.statusCode).toBe(403);
    expect(await watchesState()).toEqual(before);
  });

  it('is refused on the GraphQL mutations too', async () => {
    const res = await server.app.inject({
      method: 'POST',
      url: '/graphql',
      headers: bearer(partner),
      payload: {
        query: 'mutation ($d: String!) { deleteSignal(domain: $d) { __typename } }',
        variables: { d: WATCHED },
      },
    });
    const body = res.json();
    expect(body.errors?.[0]?.extensions, res.body).toMatchObject({
      code: 'unauthorized',
      details: { reason: 'scope' },
    });
  });
});
