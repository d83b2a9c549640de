// One gateway (access layer included) and job worker for the Signals tests, on a fresh migrated
// database, with the fixture storefront of stock-storefront.ts reachable through EGRESS_OVERRIDES,
// a clock the test sets and moves (it starts on a fixed future day, so the scheduled probes the
// watches queue, due one interval later by that clock, never fall due during a test unless the
// test makes them), keys minted per account, and a `request` that checks every JSON answer
// against the response schema the served OpenAPI description gives for that route and status.
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { OpenAPIObject } from 'openapi3-ts/oas31';
import { expect } from 'vitest';
import { mintApiKey } from '../../../src/access/api-keys.ts';
import { buildServer } from '../../../app/server.ts';
import { jobFeatures } from '../../../app/jobs.ts';
import { createPostgresLegacyStore } from '../../../src/platform/legacy/postgres-jsonb-adapter.ts';
import { loadConfig } from '../../../src/platform/config.ts';
import { openDatabase } from '../../../src/platform/database/database.ts';
import { migrateJobQueue } from '../../../src/platform/jobs/job-queue.ts';
import { startJobWorker, type JobWorker } from '../../../src/platform/jobs/job-worker.ts';
import { createLogger } from '../../../src/platform/logger.ts';
import { createPubSub } from '../../../src/platform/pubsub/pubsub.ts';
import type { Services } from '../../../src/platform/services.ts';
import { responseValidator, templateOf } from '../../rest/support/openapi-validation.ts';
import { loadReferenceData } from '../../../src/seed/reference-data.ts';
import { createTestDatabase } from '../../support/database.ts';
import {
  startStockStorefront,
  type FixtureShop,
  type StockStorefront,
} from './stock-storefront.ts';

/** 2030-01-07 (a Monday) 10:00 UTC: far enough ahead that real time never reaches a scheduled probe */
export const HARNESS_START = new Date('2030-01-07T10:00:00.000Z');

export class MovableClock {
  private at: number;
  constructor(start: Date) {
    this.at = start.getTime();
  }
  now = (): Date => new Date(this.at);
  advance(ms: number): void {
    this.at += ms;
  }
  set(at: Date): void {
    this.at = at.getTime();
  }
}

export interface CatalogProduct {
  handle: string;
  title: string;
  price: number;
  /** 1 = best; absent = not a best seller */
  bestSellerRank?: number;
}

export interface Response {
  status: number;
  headers: Record<string, unknown>;
  body: any;
}

export interface SignalsHarness {
  services: Services;
  app: FastifyInstance;
  clock: MovableClock;
  storefront: StockStorefront;
  databaseUrl: string;
  /** a key of a new account (or of `account`, an external id); pro plan unless given */
  mintKey(options?: {
    account?: string;
    scopes?: string[];
    plan?: 'starter' | 'pro';
  }): Promise<string>;
  /** a catalog store with products (no watch) */
  addStore(domain: string, products: CatalogProduct[], legacyId?: string): Promise<number>;
  request(
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    options?: { key?: string; body?: unknown },
  ): Promise<Response>;
  /** polls GET /v1/signals/{domain}/probe until progress.status is done or failed */
  waitForProbe(domain: string, key?: string, timeoutMs?: number): Promise<any>;
  close(): Promise<void>;
}

export interface SignalsHarnessOptions {
  env?: Record<string, string>;
  shops?: Map<string, FixtureShop>;
  /** more EGRESS_OVERRIDES (host=origin, comma-separated) beside the fixture storefront's, e.g. fake ad libraries */
  egressOverrides?: string;
  /** load the app catalog of data/apps.json, so scrapes and probes recognise apps */
  appCatalog?: boolean;
}

export async function startSignalsHarness(
  options: SignalsHarnessOptions = {},
): Promise<SignalsHarness> {
  const testDb = await createTestDatabase();
  const storefront = await startStockStorefront(options.shops);
  const config = loadConfig({
    NODE_ENV: 'test',
    DATABASE_URL: testDb.url,
    SEED_STORES: '0',
    LOG_LEVEL: 'silent',
    EGRESS_OVERRIDES: [storefront.overrides, options.egressOverrides].filter(Boolean).join(','),
    EGRESS_HOST_INTERVAL_MS: '0',
    EGRESS_TIMEOUT_MS: '1500',
    WORKER_IN_PROCESS: 'false',
    CHROMIUM_PATH: '',
    QUOTA_REDIS_PREFIX: `test-signals-${randomBytes(6).toString('hex')}`,
    ...options.env,
  });
  const logger = createLogger((process.env.SIGNALS_TEST_LOG as 'error') ?? 'silent');
  const db = await openDatabase({
    url: testDb.url,
    logger,
    queryTimeoutMs: config.QUERY_TIMEOUT_MS,
  });
  const legacy = createPostgresLegacyStore({ pool: db.pool });
  const pubsub = createPubSub({ logger });
  const clock = new MovableClock(HARNESS_START);
  const services: Services = { config, logger, db, legacy, pubsub, clock: clock.now };
  if (options.appCatalog) await loadAppCatalog(db.pool);
  await migrateJobQueue(db.pool);
  const app = await buildServer(services);
  await app.ready();
  const document = (
    await app.inject({ method: 'GET', url: '/v1/openapi.json' })
  ).json() as OpenAPIObject;
  const validate = responseValidator(document);
  const templates = Object.keys(document.paths ?? {});

  const worker: JobWorker = await startJobWorker({
    databaseUrl: testDb.url,
    logger,
    concurrency: 2,
    features: jobFeatures(services),
    sweepIntervalMs: 300,
    orphanGraceMs: 1_000,
    pollIntervalMs: 200,
  });

  const request: SignalsHarness['request'] = async (method, url, { key, body } = {}) => {
    const response = await app.inject({
      method,
      url,
      headers: key ? { authorization: `Bearer ${key}` } : {},
      ...(body !== undefined ? { payload: body as object } : {}),
    });
    const parsed = response.body ? response.json() : undefined;
    const template = templateOf(templates, url);
    if (template) {
      expect(
        validate(method, template, response.statusCode, parsed),
        `${method} ${url} ${response.statusCode} matches the OpenAPI description`,
      ).toEqual([]);
    }
    return {
      status: response.statusCode,
      headers: response.headers as Record<string, unknown>,
      body: parsed,
    };
  };

  return {
    services,
    app,
    clock,
    storefront,
    databaseUrl: testDb.url,
    async mintKey({ account, scopes, plan } = {}) {
      const minted = await mintApiKey(db.prisma, {
        accountExternalId: account ?? `acct-${randomBytes(4).toString('hex')}`,
        plan: plan ?? 'pro',
        scopes,
      });
      return minted.key;
    },
    async addStore(domain, products, legacyId) {
      const {
        rows: [store],
      } = await db.pool.query<{ id: number }>(
        'INSERT INTO stores (domain, name, legacy_id) VALUES ($1, $1, $2) RETURNING id',
        [domain, legacyId ?? null],
      );
      await db.pool.query(
        `INSERT INTO products (store_id, handle, title, price, is_best_seller, best_seller_rank)
         SELECT $1, p.handle, p.title, p.price, p.rank IS NOT NULL, p.rank FROM jsonb_to_recordset($2::jsonb) AS p(handle text, title text, price numeric, rank int)`,
        [
          store!.id,
          JSON.stringify(products.map((p) => ({ ...p, rank: p.bestSellerRank ?? null }))),
        ],
      );
      return store!.id;
    },
    request,
    async waitForProbe(domain, key, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const { status, body } = await request(
          'GET',
          `/v1/signals/${encodeURIComponent(domain)}/probe`,
          { key },
        );
        // the contract polls "until `progress.status` is done or failed": progress at the body's top level
        if (status === 200 && ['done', 'failed'].includes(body.progress.status)) return body;
        if (Date.now() > deadline)
          throw new Error(`probe of ${domain} is ${JSON.stringify(body)}, not done or failed`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    async close() {
      await worker.stop();
      await app.close();
      await pubsub.close();
      await legacy.close();
      await db.close();
      await storefront.close();
      await testDb.drop();
    },
  };
}

async function loadAppCatalog(pool: Services['db']['pool']): Promise<void> {
  const apps = loadReferenceData().apps.map((a) => ({
    slug: a.slug,
    name: a.name,
    category: a.category,
    patterns: a.detectionPatterns,
  }));
  await pool.query(
    `INSERT INTO apps (slug, name, category, detection_patterns)
     SELECT slug, name, category, patterns FROM jsonb_to_recordset($1::jsonb) AS x(slug text, name text, category text, patterns text[])`,
    [JSON.stringify(apps)],
  );
}
