// `npm start` on a fresh machine with no settings and no network: the whole lifecycle works on the
// seeded (synthetic .example) catalog, whose storefronts the service serves in-process. A forced
// scrape of a seeded store runs queued -> done and its price change appears in the feeds; a
// Signals watch's probes estimate sales from the second probe on; every example of docs.md, llms.txt
// and /v1/examples answers 2xx when followed in the order of its story; `npm run webhooks:listen` receives
// the scrape's signed webhook on loopback and prints it verified (and refuses to run in production).
// Nothing leaves the machine.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { SEEDED, UNLISTED } from '../../src/seed/seeded-catalog.ts';
import {
  docsExamples,
  needsStorefront,
  type DocsExample,
} from '../self-description/support/docs-examples.ts';
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
    const json = (res.headers.get('content-type') ?? '').includes('json');
    // a body that is not JSON is read too, so the connection is free for the next call
    const answer: any = json ? await res.json() : await res.arrayBuffer().then(() => null);
    return { status: res.status, body: answer };
  };

  /** a scrape's status, or a probe's (progress.status) */
  const statusOf = (r: { body: any }): string | undefined =>
    r.body?.status ?? r.body?.progress?.status;
  const probeEnded = (r: { body: any }) => ['done', 'failed'].includes(statusOf(r) ?? '');

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'sig-fresh-install-'));
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    env = { ...process.env };
    for (const name of Object.keys(env))
      if (/^(DATABASE_|REDIS_|MONGODB_|EGRESS_|DEMO_|NODE_ENV$)/.test(name)) delete env[name];
    // only where the data goes, the port and a small catalog (the example stores exist from 38 stores on)
    Object.assign(env, {
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      SEED_STORES: '60',
      LOG_LEVEL: 'warn',
    });
    child = spawn(TSX, ['app/main.ts'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout?.on('data', (chunk) => (output += chunk));
    child.stderr?.on('data', (chunk) => (output += chunk));
    await pollUntil(
      () => fetch(`${base}/v1/health`).then((r) => r.status),
      (status) => status === 200,
      240_000,
      250,
    ).catch((error) => {
      throw new Error(`${(error as Error).message}\n${output}`);
    });
  }, 300_000);

  afterAll(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    await rm(dataDir, { recursive: true, force: true });
  });

  it('every example of docs.md, llms.txt and /v1/examples answers 2xx, followed in the order of its story', {
    timeout: 300_000,
  }, async () => {
    const docs = await (await fetch(`${base}/v1/docs.md`)).text();
    const llms = await (await fetch(`${base}/v1/llms.txt`)).text();
    const examples = docsExamples(docs);
    expect(examples.length).toBe([...docs.matchAll(/^Example: /gm)].length);
    const answered: string[] = [];
    const follow = async (method: string, route: string, body?: unknown) => {
      const res = await call(method, route, body);
      answered.push(`${method} ${route}`);
      expect([
        method,
        route,
        res.status,
        res.status >= 200 && res.status < 300 ? 'ok' : JSON.stringify(res.body),
      ]).toEqual([method, route, res.status, 'ok']);
      return res;
    };

    // the catalog's examples, then the storefront story: scrape the unlisted store (poll it by its id),
    // bulk-scrape it with a second, read its screenshot; watch it, follow its first probe, probe it
    // again; read everything; refresh its ads; read and delete the alert made before the watch's probes;
    // pause, stop and delete the watch last
    for (const example of examples.filter((e) => !needsStorefront(e.path)))
      await follow(example.method, example.path, example.body);
    for (const document of [docs, llms]) {
      const line = document.split('\n').find((l) => l.includes('A full URL as {domain}'))!;
      for (const [, route] of line.matchAll(/\((\/v1\/stores\/[^)\s]+)\)/g))
        await follow('GET', route!);
    }
    const storefront = examples.filter((e) => needsStorefront(e.path));
    const key = (e: DocsExample) =>
      `${e.method} ${e.path.split('?')[0]!.replaceAll(UNLISTED.store, '{domain}')}`;
    const story = [
      'POST /v1/scrapes',
      'GET /v1/scrapes/{id}',
      'POST /v1/scrapes/bulk',
      'GET /v1/stores/{domain}/screenshot',
      'POST /v1/alerts',
      'POST /v1/signals',
      'GET /v1/signals/{domain}/probe',
      'POST /v1/signals/{domain}/probe',
      'GET /v1/signals',
      'GET /v1/signals/{domain}',
      'GET /v1/signals/insights',
      'GET /v1/signals/{domain}/stats',
      'GET /v1/signals/{domain}/sales',
      'GET /v1/signals/{domain}/inventory',
      'GET /v1/signals/{domain}/insights',
      'GET /v1/signals/{domain}/apps',
      'GET /v1/signals/{domain}/apps/changes',
      'GET /v1/signals/{domain}/products/changes',
      'POST /v1/signals/{domain}/ads/probe',
      'GET /v1/signals/{domain}/ads',
      'GET /v1/signals/{domain}/ads/overview',
      'GET /v1/alerts',
      'GET /v1/alerts/1/matches',
      'DELETE /v1/alerts/1',
      'PATCH /v1/signals/{domain}',
      'POST /v1/signals/{domain}/stop',
      'DELETE /v1/signals/{domain}',
    ];
    expect(storefront.map(key).sort()).toEqual([...story].sort());
    let scrapeId = '';
    for (const route of story) {
      const example = storefront.find((e) => key(e) === route)!;
      if (route === 'GET /v1/scrapes/{id}') {
        const ended = await pollUntil(
          () => call('GET', example.path.replace('{id}', scrapeId)),
          probeEnded,
          120_000,
        );
        expect(statusOf(ended)).toBe('done');
        await follow('GET', example.path.replace('{id}', scrapeId));
        continue;
      }
      if (route === 'GET /v1/stores/{domain}/screenshot' && !existsSync('/usr/bin/chromium'))
        continue; // taken by Chromium, when there is one
      const res = await follow(example.method, example.path, example.body);
      if (route === 'POST /v1/scrapes') scrapeId = res.body.id;
      if (route === 'POST /v1/scrapes/bulk') {
        for (const item of res.body.data as Array<{ id: string | null }>) {
          if (item.id)
            await pollUntil(() => call('GET', `/v1/scrapes/${item.id}`), probeEnded, 120_000);
        }
      }
      if (route.startsWith('POST /v1/signals')) {
        const probe = `/v1/signals/${UNLISTED.store}/probe`;
        expect(statusOf(await pollUntil(() => call('GET', probe), probeEnded, 120_000))).toBe(
          'done',
        );
      }
    }

    // the recipes of /v1/examples, each step with {domain}, {slug} and {id} taken from the answers before it
    const { body: recipes } = await call('GET', '/v1/examples');
    for (const workflow of recipes.workflows as Array<{
      id: string;
      steps: Array<{ method: string; path: string; body?: unknown }>;
    }>) {
      const taken: Record<string, string> = { id: scrapeId };
      for (const step of workflow.steps) {
        const route = step.path.replace(/\{(domain|slug|id)\}/g, (_, name: string) =>
          encodeURIComponent(taken[name]!),
        );
        const res =
          step.path.includes('/probe') && step.method === 'GET'
            ? await pollUntil(() => call('GET', route), probeEnded, 120_000)
            : await follow(step.method, route, step.body);
        if (step.path.includes('/probe') && step.method === 'GET')
          expect(statusOf(res)).toBe('done');
        // a scrape's id is a UUID, an alert's a number
        if (['string', 'number'].includes(typeof res.body?.id) && step.method === 'POST')
          taken.id = String(res.body.id);
        const first = Array.isArray(res.body?.data) ? res.body.data[0] : undefined;
        for (const name of ['domain', 'slug'])
          if (typeof first?.[name] === 'string') taken[name] ??= first[name];
      }
    }
    expect(answered.length).toBeGreaterThan(examples.length);
  });

  it('a forced scrape of a seeded store runs queued -> done, and the price drop it saw is in the change feeds', {
    timeout: 180_000,
  }, async () => {
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
    expect(
      (products.body.data as any[]).some((c) => JSON.stringify(c).includes(SEEDED.domain)),
    ).toBe(true);
  });

  it('npm run webhooks:listen prints the verified webhook of a scrape that named it as its callback', {
    timeout: 180_000,
  }, async () => {
    const listenPort = await freePort();
    const listener = spawn(TSX, ['app/cli/webhooks-listen.ts', '--port', String(listenPort)], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let printed = '';
    listener.stdout?.on('data', (chunk) => (printed += chunk));
    listener.stderr?.on('data', (chunk) => (printed += chunk));
    try {
      await pollUntil(
        async () => printed,
        (text) => text.includes('Listening for signed webhooks'),
        30_000,
      );
      const callbackUrl = `http://127.0.0.1:${listenPort}/webhooks`;
      expect(printed).toContain(callbackUrl);
      const queued = await call('POST', '/v1/scrapes', {
        domain: SEEDED.otherDomain,
        force: true,
        callbackUrl,
      });
      expect(queued.status, JSON.stringify(queued.body)).toBe(202);
      await pollUntil(
        async () => printed,
        (text) => text.includes('scrape.done'),
        120_000,
      );
      expect(printed).toContain(queued.body.id);
      expect(printed).not.toContain('REJECTED');
    } finally {
      const exited = new Promise((resolve) => listener.once('exit', resolve));
      listener.kill('SIGTERM');
      await exited;
    }
  });

  it('webhooks:listen refuses to run in production', async () => {
    const refused = spawn(TSX, ['app/cli/webhooks-listen.ts'], {
      env: { ...env, NODE_ENV: 'production' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let said = '';
    refused.stderr?.on('data', (chunk) => (said += chunk));
    const code = await new Promise((resolve) => refused.once('exit', resolve));
    expect(code).toBe(1);
    expect(said).toContain('is for development');
  });

  it('a watch of a seeded store probes its storefront, and its second probe estimates sales', {
    timeout: 240_000,
  }, async () => {
    const watch = await call('POST', '/v1/signals', { domain: SEEDED.otherDomain });
    expect(watch.status, JSON.stringify(watch.body)).toBe(201);
    const first = await pollUntil(
      () => call('GET', `/v1/signals/${SEEDED.otherDomain}/probe`),
      probeEnded,
      120_000,
    );
    expect(statusOf(first), JSON.stringify(first.body)).toBe('done');

    const again = await call('POST', `/v1/signals/${SEEDED.otherDomain}/probe`);
    expect(again.status, JSON.stringify(again.body)).toBe(202);
    await pollUntil(
      () => call('GET', `/v1/signals/${SEEDED.otherDomain}/probe`),
      (r) => probeEnded(r) && r.body.id !== first.body.id,
      120_000,
    );
    const sales = await call('GET', `/v1/signals/${SEEDED.otherDomain}/sales?from=2000-01-01`);
    expect(sales.status).toBe(200);
    const units = (sales.body.data as any[]).reduce((sum, day) => sum + day.units, 0);
    expect(units, JSON.stringify(sales.body)).toBeGreaterThan(0);
  });
});
