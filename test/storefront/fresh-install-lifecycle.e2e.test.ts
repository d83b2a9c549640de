// `npm start` on a fresh machine with no settings and no network: the whole lifecycle works on the
// seeded (synthetic .example) catalog, whose storefronts the service serves in-process. A forced
// scrape of a seeded store runs queued -> done and its price change appears in the feeds; a
// Signals watch's probes estimate sales from the second probe on; `npm run webhooks:listen` receives
// the scrape's signed webhook on loopback and prints it verified (and refuses to run in production).
// Nothing leaves the machine.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEEDED } from '../../src/discovery/seeded-catalog.ts';
import { freePort } from '../support/free-port.ts';
import { pollUntil } from '../support/poll.ts';

const TSX = 'node_modules/.bin/tsx';

describe('a fresh install with no settings: scrape, watch and feeds of a seeded store', () => {
  let dataDir: string;
  let child: ChildProcess;
  let output = '';
  let base: string;
  let env: NodeJS.ProcessEnv;

  const call = async (method: string, route: string, body?: unknown) => {
    const res = await fetch(`${base}${route}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? (JSON.parse(text) as any) : null };
  };

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'sig-fresh-install-'));
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    env = { ...process.env };
    for (const name of Object.keys(env)) if (/^(DATABASE_|REDIS_|MONGODB_|EGRESS_|DEMO_|NODE_ENV$)/.test(name)) delete env[name];
    // only where the data goes, the port and a small catalog (the example stores exist from 38 stores on)
    Object.assign(env, { DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', SEED_STORES: '60', LOG_LEVEL: 'warn' });
    child = spawn(TSX, ['app/main.ts'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout?.on('data', (chunk) => (output += chunk));
    child.stderr?.on('data', (chunk) => (output += chunk));
    await pollUntil(() => fetch(`${base}/v1/health`).then((r) => r.status), (status) => status === 200, 120_000, 250).catch((error) => {
      throw new Error(`${(error as Error).message}\n${output}`);
    });
  }, 150_000);

  afterAll(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    await rm(dataDir, { recursive: true, force: true });
  });

  it('a forced scrape of a seeded store runs queued -> done, and the price drop it saw is in the change feeds', async () => {
    const queued = await call('POST', '/v1/scrapes', { domain: SEEDED.domain, force: true });
    expect([queued.status, queued.body?.status]).toEqual([202, 'queued']);
    const ended = await pollUntil(
      () => call('GET', `/v1/scrapes/${queued.body.id}`),
      (r) => ['done', 'failed'].includes(r.body?.status),
      60_000,
    );
    expect(ended.body).toMatchObject({ status: 'done', domain: SEEDED.domain });

    const changes = await call('GET', `/v1/changes?domain=${SEEDED.domain}&since=2000-01-01`);
    expect(changes.status).toBe(200);
    const drop = (changes.body.data as any[]).find((c) => c.changeType === 'price_decrease');
    expect(drop, JSON.stringify(changes.body)).toBeDefined();
    // the storefront shows the best seller at 10 % off
    expect(Number(drop.newValue)).toBeCloseTo(Number(drop.oldValue) * 0.9, 2);
    const products = await call('GET', '/v1/products/changes?changeType=price_decrease');
    expect((products.body.data as any[]).some((c) => JSON.stringify(c).includes(SEEDED.domain))).toBe(true);
  });

  it('npm run webhooks:listen prints the verified webhook of a scrape that named it as its callback', async () => {
    const listenPort = await freePort();
    const listener = spawn(TSX, ['src/scrapes/webhooks/listen-cli.ts', '--port', String(listenPort)], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let printed = '';
    listener.stdout?.on('data', (chunk) => (printed += chunk));
    listener.stderr?.on('data', (chunk) => (printed += chunk));
    try {
      await pollUntil(async () => printed, (text) => text.includes('Listening for signed webhooks'), 30_000);
      const callbackUrl = `http://127.0.0.1:${listenPort}/webhooks`;
      expect(printed).toContain(callbackUrl);
      const queued = await call('POST', '/v1/scrapes', { domain: SEEDED.otherDomain, force: true, callbackUrl });
      expect(queued.status, JSON.stringify(queued.body)).toBe(202);
      await pollUntil(async () => printed, (text) => text.includes('scrape.done'), 60_000);
      expect(printed).toContain(queued.body.id);
      expect(printed).not.toContain('REJECTED');
    } finally {
      const exited = new Promise((resolve) => listener.once('exit', resolve));
      listener.kill('SIGTERM');
      await exited;
    }
  });

  it('webhooks:listen refuses to run in production', async () => {
    const refused = spawn(TSX, ['src/scrapes/webhooks/listen-cli.ts'], { env: { ...env, NODE_ENV: 'production' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let said = '';
    refused.stderr?.on('data', (chunk) => (said += chunk));
    const code = await new Promise((resolve) => refused.once('exit', resolve));
    expect(code).toBe(1);
    expect(said).toContain('is for development');
  });

  it("a watch of a seeded store probes its storefront, and its second probe estimates sales", async () => {
    const watch = await call('POST', '/v1/signals', { domain: SEEDED.otherDomain });
    expect(watch.status, JSON.stringify(watch.body)).toBe(201);
    const probeDone = (r: { body: any }) => ['done', 'failed'].includes(r.body?.status);
    const first = await pollUntil(() => call('GET', `/v1/signals/${SEEDED.otherDomain}/probe`), probeDone, 60_000);
    expect(first.body.status, JSON.stringify(first.body)).toBe('done');

    const again = await call('POST', `/v1/signals/${SEEDED.otherDomain}/probe`);
    expect(again.status, JSON.stringify(again.body)).toBe(202);
    await pollUntil(() => call('GET', `/v1/signals/${SEEDED.otherDomain}/probe`), (r) => probeDone(r) && r.body.id !== first.body.id, 60_000);
    const sales = await call('GET', `/v1/signals/${SEEDED.otherDomain}/sales?from=2000-01-01`);
    expect(sales.status).toBe(200);
    const units = (sales.body.data as any[]).reduce((sum, day) => sum + day.units, 0);
    expect(units, JSON.stringify(sales.body)).toBeGreaterThan(0);
  });
});
