// The server the ads tests drive: a real server (access layer included) on a fresh database, the
// fake ad libraries on loopback (EGRESS_OVERRIDES) configured as the three networks unless a test
// leaves some out, a clock the test moves, stores and watches inserted as rows, and `call`, which
// checks each answer against the served OpenAPI description.
import type { OpenAPIObject } from 'openapi3-ts/oas31';
import { expect } from 'vitest';
import {
  bearer,
  mintKey,
  startAccessServer,
  type AccessServer,
} from '../../access/access-server.ts';
import { responseValidator } from '../../rest/support/openapi-validation.ts';
import { createTestDatabase, type TestDatabase } from '../../support/database.ts';
import { startFakeAdLibraries, type FakeAdLibraries } from './fake-ad-libraries.ts';

export interface AdsAccount {
  id: number;
  key: string;
}

export interface AdsServer {
  server: AccessServer;
  libraries: FakeAdLibraries;
  now(): Date;
  advance(ms: number): void;
  account(name: string, scopes?: string[]): Promise<AdsAccount>;
  addStore(domain: string, legacyId?: string): Promise<number>;
  /** a watch row as POST /v1/signals creates it; returns its id */
  watch(account: AdsAccount, domain: string): Promise<number>;
  call(
    method: 'GET' | 'POST',
    url: string,
    key: string,
  ): Promise<{ status: number; headers: Record<string, unknown>; body: any }>;
  sql<R = any>(text: string, values?: unknown[]): Promise<R[]>;
  close(): Promise<void>;
}

// the ads routes, and the inventory probe's progress (ads probes share its table and must not show there)
const ROUTES = [
  '/v1/signals/{domain}/ads/probe',
  '/v1/signals/{domain}/ads/overview',
  '/v1/signals/{domain}/ads',
  '/v1/signals/{domain}/probe',
];

/** `networks`: which networks the server is configured for (default all three). */
export async function startAdsServer(
  options: { networks?: Array<'meta' | 'tiktok' | 'google'>; env?: Record<string, string> } = {},
): Promise<AdsServer> {
  const db: TestDatabase = await createTestDatabase();
  const libraries = await startFakeAdLibraries();
  const networks = options.networks ?? ['meta', 'tiktok', 'google'];
  const adsEnv = Object.fromEntries(
    Object.entries(libraries.env).filter(([name]) =>
      networks.some((n) => name.startsWith(`ADS_${n.toUpperCase()}_`)),
    ),
  );
  const server = await startAccessServer(db.url, {
    ...adsEnv,
    EGRESS_OVERRIDES: libraries.overrides,
    EGRESS_HOST_INTERVAL_MS: '0',
    EGRESS_TIMEOUT_MS: '1000',
    LOG_LEVEL: 'silent',
    ...options.env,
  });
  let offsetMs = 0;
  const now = () => new Date(Date.now() + offsetMs);
  server.services.clock = now;
  const pool = server.services.db.pool;
  const document = (
    await server.app.inject({ method: 'GET', url: '/v1/openapi.json' })
  ).json() as OpenAPIObject;
  const validate = responseValidator(document);

  return {
    server,
    libraries,
    now,
    advance: (ms) => {
      offsetMs += ms;
    },
    async account(name, scopes) {
      const key = await mintKey(server, { accountExternalId: name, plan: 'pro', scopes });
      const {
        rows: [row],
      } = await pool.query<{ id: number }>('SELECT id FROM accounts WHERE external_id = $1', [
        name,
      ]);
      return { id: row!.id, key };
    },
    async addStore(domain, legacyId) {
      const {
        rows: [row],
      } = await pool.query<{ id: number }>(
        'INSERT INTO stores (domain, name, legacy_id) VALUES ($1, $1, $2) RETURNING id',
        [domain, legacyId ?? null],
      );
      return row!.id;
    },
    async watch(account, domain) {
      const {
        rows: [row],
      } = await pool.query<{ id: number }>(
        `INSERT INTO signals (account_id, store_id, created_at, updated_at) SELECT $1, id, $3, $3 FROM stores WHERE domain = $2 RETURNING id`,
        [account.id, domain, now()],
      );
      // as POST /v1/signals does: every watch starts with its first inventory probe (here already done)
      await pool.query(
        `INSERT INTO signal_probes (signal_id, kind, status, created_at, finished_at) VALUES ($1, 'first', 'done', $2, $2)`,
        [row!.id, now()],
      );
      return row!.id;
    },
    async call(method, url, key) {
      const res = await server.app.inject({ method, url, headers: bearer(key) });
      const body = res.json();
      const path = url.split('?')[0]!.replace(/^\/v1\/signals\/[^/]+/, '/v1/signals/{domain}');
      const template = ROUTES.find((t) => t === path);
      expect(template, `${url} is a route this server checks`).toBeDefined();
      expect(
        validate(method, template!, res.statusCode, body),
        `${method} ${url} ${res.statusCode} matches the OpenAPI description`,
      ).toEqual([]);
      return { status: res.statusCode, headers: res.headers as Record<string, unknown>, body };
    },
    async sql(text, values = []) {
      return (await pool.query(text, values)).rows;
    },
    async close() {
      await server.close();
      await libraries.close();
      await db.drop();
    },
  };
}
