// One gateway + job worker for the scrape tests, on a fresh migrated database with the app catalog
// of data/apps.json, a clock the test can move, and the fixture storefronts reachable through
// EGRESS_OVERRIDES. The worker sweeps and polls fast so crash recovery and retries fit in a test.
import type { FastifyInstance } from 'fastify';
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
import { loadReferenceData } from '../../../src/seed/reference-data.ts';
import { createTestDatabase } from '../../support/database.ts';

export class TestClock {
  private offsetMs = 0;
  now = (): Date => new Date(Date.now() + this.offsetMs);
  advance(ms: number): void {
    this.offsetMs += ms;
  }
}

export interface HarnessOptions {
  env?: Record<string, string>;
  redisUrl?: string;
  pubsubPrefix?: string;
  /** start a job worker in this process (default true) */
  worker?: boolean;
  /** an existing database to share (a second replica) */
  databaseUrl?: string;
}

export interface ScrapeHarness {
  services: Services;
  app: FastifyInstance;
  clock: TestClock;
  databaseUrl: string;
  startWorker(): Promise<JobWorker>;
  post(
    path: string,
    body: unknown,
  ): Promise<{ status: number; headers: Record<string, unknown>; body: any }>;
  get(path: string): Promise<{ status: number; headers: Record<string, unknown>; body: any }>;
  /** polls GET /v1/scrapes/{id} until the status is one of `statuses` */
  waitFor(id: string, statuses: string[], timeoutMs?: number): Promise<any>;
  close(): Promise<void>;
}

export async function startScrapeHarness(options: HarnessOptions = {}): Promise<ScrapeHarness> {
  const testDb = options.databaseUrl ? undefined : await createTestDatabase();
  const databaseUrl = options.databaseUrl ?? testDb!.url;
  const config = loadConfig({
    NODE_ENV: 'test',
    DATABASE_URL: databaseUrl,
    SEED_STORES: '0',
    LOG_LEVEL: 'silent',
    EGRESS_HOST_INTERVAL_MS: '0',
    EGRESS_TIMEOUT_MS: '1500',
    WORKER_IN_PROCESS: 'false',
    // screenshots only where a test asks for them (test/scrapes/screenshot.test.ts): a browser per scrape is slow
    CHROMIUM_PATH: '',
    ...options.env,
  });
  const logger = createLogger((process.env.SCRAPE_TEST_LOG as 'error') ?? 'silent');
  const db = await openDatabase({
    url: databaseUrl,
    logger,
    queryTimeoutMs: config.QUERY_TIMEOUT_MS,
  });
  const legacy = createPostgresLegacyStore({ pool: db.pool });
  const pubsub = createPubSub({
    logger,
    redisUrl: options.redisUrl,
    keyPrefix: options.pubsubPrefix,
  });
  const clock = new TestClock();
  const services: Services = { config, logger, db, legacy, pubsub, clock: clock.now };
  if (!options.databaseUrl) await loadAppCatalog(services);
  await migrateJobQueue(db.pool);
  const app = await buildServer(services);
  await app.ready();

  const workers: JobWorker[] = [];
  const startWorker = async () => {
    const worker = await startJobWorker({
      databaseUrl,
      logger,
      concurrency: 2,
      features: jobFeatures(services),
      sweepIntervalMs: 300,
      orphanGraceMs: 1_000,
      pollIntervalMs: 200,
    });
    workers.push(worker);
    return worker;
  };
  if (options.worker !== false) await startWorker();

  const send = async (method: 'GET' | 'POST', url: string, payload?: unknown) => {
    const response = await app.inject({ method, url, payload: payload as object | undefined });
    return {
      status: response.statusCode,
      headers: response.headers as Record<string, unknown>,
      body: response.json(),
    };
  };
  const get = (path: string) => send('GET', path);
  return {
    services,
    app,
    clock,
    databaseUrl,
    startWorker,
    post: (path, body) => send('POST', path, body),
    get,
    async waitFor(id, statuses, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const { body } = await get(`/v1/scrapes/${id}`);
        if (statuses.includes(body.status)) return body;
        if (Date.now() > deadline)
          throw new Error(`scrape ${id} is ${JSON.stringify(body)}, not ${statuses.join('|')}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    async close() {
      for (const worker of workers) await worker.stop();
      await app.close();
      await pubsub.close();
      await legacy.close();
      await db.close();
      await testDb?.drop();
    },
  };
}

async function loadAppCatalog(services: Services): Promise<void> {
  const apps = loadReferenceData().apps.map((a) => ({
    slug: a.slug,
    name: a.name,
    category: a.category,
    patterns: a.detectionPatterns,
  }));
  await services.db.pool.query(
    `INSERT INTO apps (slug, name, category, detection_patterns)
     SELECT slug, name, category, patterns FROM jsonb_to_recordset($1::jsonb) AS x(slug text, name text, category text, patterns text[])`,
    [JSON.stringify(apps)],
  );
}
