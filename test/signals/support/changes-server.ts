// The server and data the app-and-product-change tests need: a real server (access layer included)
// on a fresh database holding the app catalog of data/apps.json, the fixture storefronts on loopback
// (EGRESS_OVERRIDES), the storefront observer the probe task runs, with a clock the test moves,
// watches inserted as rows, and a `get` that checks each answer against the served OpenAPI description.
import type { OpenAPIObject } from 'openapi3-ts/oas31';
import { expect } from 'vitest';
import { createEgress } from '../../../src/platform/egress/egress.ts';
import { loadReferenceData } from '../../../src/seed/reference-data.ts';
import { createStorefrontClient } from '../../../src/storefront/storefront-client.ts';
import { createWatchedStoreRefresh } from '../../../src/signals/watched-changes/watched-store-refresh.ts';
import {
  WATCH_COLUMNS,
  type SignalStatus,
  type WatchRecord,
} from '../../../src/signals/watch-record.ts';
import {
  bearer,
  mintKey,
  startAccessServer,
  type AccessServer,
} from '../../access/access-server.ts';
import { responseValidator } from '../../rest/support/openapi-validation.ts';
import {
  startFixtureStorefronts,
  type FixtureStorefronts,
} from '../../scrapes/support/fixture-storefronts.ts';
import { createTestDatabase, type TestDatabase } from '../../support/database.ts';

export interface Account {
  id: number;
  key: string;
}

export interface ChangesServer {
  server: AccessServer;
  storefronts: FixtureStorefronts;
  /** the observer's clock: starts at `start`, moved by `advance` */
  now(): Date;
  advance(ms: number): void;
  observe(watch: WatchRecord): Promise<{ appChanges: number; productChanges: number }>;
  account(name: string): Promise<Account>;
  /** a catalog row for a store never observed (no products, no apps) */
  addStore(domain: string, legacyId?: string): Promise<number>;
  /** a watch row as POST /v1/signals creates it, at the current clock */
  watch(account: Account, domain: string, status?: SignalStatus): Promise<WatchRecord>;
  get(url: string, key: string): Promise<{ status: number; body: any }>;
  close(): Promise<void>;
}

const SIGNAL_ROUTES = [
  '/v1/signals/{domain}/apps',
  '/v1/signals/{domain}/apps/changes',
  '/v1/signals/{domain}/products/changes',
];

export async function startChangesServer(start: Date): Promise<ChangesServer> {
  const db: TestDatabase = await createTestDatabase();
  const storefronts = await startFixtureStorefronts();
  const server = await startAccessServer(db.url, {
    EGRESS_OVERRIDES: storefronts.overrides,
    EGRESS_HOST_INTERVAL_MS: '0',
    EGRESS_TIMEOUT_MS: '1500',
    LOG_LEVEL: 'silent',
  });
  const pool = server.services.db.pool;
  await loadAppCatalog(server);
  let offsetMs = 0;
  const now = () => new Date(start.getTime() + offsetMs);
  const { config, logger } = server.services;
  const egress = createEgress({
    overrides: config.EGRESS_OVERRIDES,
    timeoutMs: config.EGRESS_TIMEOUT_MS,
    maxBytes: config.EGRESS_MAX_BYTES,
    hostIntervalMs: config.EGRESS_HOST_INTERVAL_MS,
    userAgent: 'changes-test',
  });
  const observe = createWatchedStoreRefresh({
    pool,
    legacy: server.services.legacy,
    pubsub: server.services.pubsub,
    storefronts: createStorefrontClient(egress),
    reference: loadReferenceData(),
    clock: now,
    logger,
    discoverLinks: false,
  });
  const document = (
    await server.app.inject({ method: 'GET', url: '/v1/openapi.json' })
  ).json() as OpenAPIObject;
  const validate = responseValidator(document);

  return {
    server,
    storefronts,
    now,
    advance: (ms) => {
      offsetMs += ms;
    },
    observe,
    async account(name) {
      const key = await mintKey(server, { accountExternalId: name });
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
    async watch(account, domain, status = 'tracked') {
      const {
        rows: [created],
      } = await pool.query<{ id: number }>(
        `INSERT INTO signals (account_id, store_id, status, created_at, updated_at)
         SELECT $1, id, $3::signal_status, $4, $4 FROM stores WHERE domain = $2 RETURNING id`,
        [account.id, domain, status, now()],
      );
      const {
        rows: [watch],
      } = await pool.query<WatchRecord>(
        `SELECT ${WATCH_COLUMNS} FROM signals w JOIN stores s ON s.id = w.store_id WHERE w.id = $1`,
        [created!.id],
      );
      return watch!;
    },
    async get(url, key) {
      const res = await server.app.inject({ method: 'GET', url, headers: bearer(key) });
      const body = res.json();
      const template = templateOf(url);
      expect(template, `${url} is one of the routes under test`).toBeDefined();
      expect(
        validate('get', template!, res.statusCode, body),
        `${url} ${res.statusCode} matches the OpenAPI description`,
      ).toEqual([]);
      return { status: res.statusCode, body };
    },
    async close() {
      await server.close();
      await storefronts.close();
      await db.drop();
    },
  };
}

function templateOf(url: string): string | undefined {
  const path = url.split('?')[0]!.replace(/^\/v1\/signals\/[^/]+/, '/v1/signals/{domain}');
  return SIGNAL_ROUTES.find((template) => template === path);
}

async function loadAppCatalog(server: AccessServer): Promise<void> {
  const apps = loadReferenceData().apps.map((a) => ({
    slug: a.slug,
    name: a.name,
    category: a.category,
    patterns: a.detectionPatterns,
  }));
  await server.services.db.pool.query(
    `INSERT INTO apps (slug, name, category, detection_patterns)
     SELECT slug, name, category, patterns FROM jsonb_to_recordset($1::jsonb) AS x(slug text, name text, category text, patterns text[])`,
    [JSON.stringify(apps)],
  );
}
