// Server-side request forgery through scrapes and webhooks, end to end (API -> queue -> worker ->
// egress). Complements test/scrapes/egress.test.ts (the egress module on its own): IP literals in
// every spelling are refused at the API with nothing queued; a store or callback name whose DNS
// answer is private, and a storefront that redirects inside, are refused by the worker before a
// connection is made: the private listeners standing behind those addresses see no request.
//
// The private DNS answers come from this test's resolver (node:dns lookup, mocked for the names of
// PRIVATE_NAMES only; every other name resolves as usual): no DNS server the test could control
// exists here. Everything past the DNS answer is the real code path.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SCRAPE_TASK } from '../../../src/scrapes/scrape-task.ts';
import { DELIVER_WEBHOOK_TASK } from '../../../src/platform/jobs/webhook-task.ts';
import {
  startFixtureStorefronts,
  type FixtureStorefronts,
} from '../../scrapes/support/fixture-storefronts.ts';
import { startHttpsReceiver, type HttpsReceiver } from '../../scrapes/support/https-receiver.ts';
import { startScrapeHarness, type ScrapeHarness } from '../../scrapes/support/scrape-harness.ts';
import { WEBHOOK_SECRET_FOR_TESTS } from '../bad-input/support/fuzz-server.ts';

const PRIVATE_NAMES = vi.hoisted(
  (): Record<string, string[]> => ({
    'loopback.private-dns.test': ['127.0.0.1'],
    'internal.private-dns.test': ['10.0.0.7'],
    'metadata.private-dns.test': ['169.254.169.254'],
    'v6-loopback.private-dns.test': ['::1'],
    // one private answer among public ones is enough to refuse (the socket could pick it)
    'mixed.private-dns.test': ['93.184.216.34', '10.0.0.8'],
    'hooks.private-dns.test': ['127.0.0.1'],
  }),
);

vi.mock('node:dns', async (importOriginal) => {
  const dns = await importOriginal<typeof import('node:dns')>();
  type Callback = (error: NodeJS.ErrnoException | null, address: unknown, family?: number) => void;
  const lookup = (hostname: string, options: unknown, callback?: Callback) => {
    const done = (typeof options === 'function' ? options : callback) as Callback;
    const settings = (typeof options === 'object' && options !== null ? options : {}) as {
      all?: boolean;
    };
    const answers = PRIVATE_NAMES[hostname.toLowerCase()];
    if (!answers) return (dns.lookup as (...args: unknown[]) => void)(hostname, settings, done);
    const list = answers.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    process.nextTick(() =>
      settings.all ? done(null, list) : done(null, list[0]!.address, list[0]!.family),
    );
  };
  return { ...dns, lookup, default: { ...dns, lookup } };
});

/** A private service on loopback that nothing may reach; counts what reaches it anyway. */
async function startPrivateService() {
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    requests.push(`${req.method} ${req.headers.host}${req.url}`);
    res.end('secret');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A storefront that redirects, by Host, to where the test says (EGRESS_OVERRIDES sends its names here). */
async function startRedirector(locations: Record<string, string>) {
  const server = http.createServer((req, res) => {
    const location = locations[(req.headers.host ?? '').split(':')[0]!];
    res.writeHead(location ? 302 : 404, location ? { location } : {}).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let fixtures: FixtureStorefronts;
let privateService: Awaited<ReturnType<typeof startPrivateService>>;
let redirector: Awaited<ReturnType<typeof startRedirector>>;
let receiver: HttpsReceiver;
let harness: ScrapeHarness;
const REDIRECTS: Record<string, string> = {};

beforeAll(async () => {
  fixtures = await startFixtureStorefronts();
  privateService = await startPrivateService();
  const port = privateService.port;
  Object.assign(REDIRECTS, {
    'open-redirect.test': `http://127.0.0.1:${port}/admin`,
    'redirect-decimal.test': `http://2130706433:${port}/admin`,
    'redirect-v6.test': `http://[::1]:${port}/admin`,
    'redirect-name.test': `http://loopback.private-dns.test:${port}/admin`,
    'redirect-metadata.test': 'http://169.254.169.254/latest/meta-data/',
  });
  redirector = await startRedirector(REDIRECTS);
  // a receiver that would accept the webhook, were it reached: TLS trusted, 200 to everything
  receiver = await startHttpsReceiver('hooks.private-dns.test', [200]);
  const redirectOverrides = Object.keys(REDIRECTS).map(
    (host) => `${host}=http://127.0.0.1:${redirector.port}`,
  );
  harness = await startScrapeHarness({
    env: {
      EGRESS_OVERRIDES: [fixtures.overrides, ...redirectOverrides].join(','),
      NODE_EXTRA_CA_CERTS: receiver.caFile,
      WEBHOOK_SIGNING_SECRET: WEBHOOK_SECRET_FOR_TESTS,
      WEBHOOK_MAX_ATTEMPTS: '1',
    },
  });
});
afterAll(async () => {
  await harness?.close();
  await Promise.all([
    fixtures?.close(),
    privateService?.close(),
    redirector?.close(),
    receiver?.close(),
  ]);
});

/** What a scrape order writes (its job is added in the same transaction; the worker's own housekeeping jobs come and go). */
async function queueState(): Promise<string> {
  const { rows } = await harness.services.db.pool.query(
    `SELECT (SELECT count(*) FROM scrape_requests) AS requests, (SELECT count(*) FROM webhook_deliveries) AS deliveries,
            (SELECT count(*) FROM graphile_worker._private_jobs WHERE task_id IN
               (SELECT id FROM graphile_worker._private_tasks WHERE identifier = ANY($1))) AS jobs`,
    [[SCRAPE_TASK, DELIVER_WEBHOOK_TASK]],
  );
  return JSON.stringify(rows[0]);
}

const LITERAL_TARGETS = [
  '127.0.0.1',
  'http://127.0.0.1:8080/admin',
  '127.1',
  '10.0.0.1',
  '169.254.169.254',
  'http://169.254.169.254/latest/meta-data/',
  '0.0.0.0',
  '2130706433',
  'http://2130706433/',
  '0177.0.0.1',
  '0x7f.0.0.1',
  '0x7f000001',
  '[::1]',
  'http://[::1]/',
  '::1',
  '[::ffff:127.0.0.1]',
  '[::ffff:a9fe:a9fe]',
  '[fd00::1]',
  'localhost',
  'http://localhost:3000/',
  'http://user@acme.example',
];

describe('scrape targets written as addresses', () => {
  it.each(LITERAL_TARGETS)('refuses %s with bad_request, queueing nothing', async (domain) => {
    const before = await queueState();
    const response = await harness.post('/v1/scrapes', { domain });
    expect(response.status, JSON.stringify(response.body)).toBe(400);
    expect(response.body.error).toMatchObject({
      code: 'bad_request',
      details: { parameter: 'domain' },
    });
    expect(await queueState()).toBe(before);
  });

  it('rejects each of them in a bulk request too, queueing nothing', async () => {
    const before = await queueState();
    const response = await harness.post('/v1/scrapes/bulk', { urls: LITERAL_TARGETS.slice(0, 10) });
    expect(response.status).toBe(200);
    expect(response.body.counts).toEqual({
      queued: 0,
      alreadyExists: 0,
      duplicate: 0,
      rejected: 10,
    });
    expect(await queueState()).toBe(before);
  });
});

describe('callback URLs', () => {
  it.each([
    'https://127.0.0.1/hook',
    'https://127.1/hook',
    'https://10.0.0.1/hook',
    'https://192.168.1.10/hook',
    'https://100.100.100.200/latest/meta-data/',
    'https://169.254.169.254/latest/meta-data/',
    'https://0.0.0.0/hook',
    'https://2130706433/hook',
    'https://0177.0.0.1/hook',
    'https://0x7f000001/hook',
    'https://[::1]/hook',
    'https://[::ffff:127.0.0.1]/hook',
    'https://[fd00::1]/hook',
    // loopback by definition: refused at the door, before any DNS lookup
    'https://localhost/hook',
    'https://LOCALHOST./hook',
    'https://hooks.localhost/hook',
    'http://hooks.example.com/hook',
    'ftp://hooks.example.com/hook',
    'https://user:secret@hooks.example.com/hook',
    'javascript:alert(1)',
    '//hooks.example.com/hook',
  ])('refuses %s with bad_request naming callbackUrl, queueing nothing', async (callbackUrl) => {
    const before = await queueState();
    const response = await harness.post('/v1/scrapes', {
      domain: 'new-store.example',
      callbackUrl,
    });
    expect(response.status, JSON.stringify(response.body)).toBe(400);
    expect(response.body.error).toMatchObject({
      code: 'bad_request',
      details: { parameter: 'callbackUrl' },
    });
    expect(await queueState()).toBe(before);
  });

  it.each([
    [
      'whose name resolves to loopback',
      () => `https://hooks.private-dns.test:${receiver.port}/hook`,
      'shop-a.test',
    ],
  ])(
    '%s is accepted as a name, then never delivered: refused after resolution',
    async (_what, callbackUrl, domain) => {
      const response = await harness.post('/v1/scrapes', { domain, callbackUrl: callbackUrl() });
      expect(response.status, JSON.stringify(response.body)).toBe(202);
      const id = response.body.id as string;
      await harness.waitFor(id, ['done', 'failed']);
      const pool = harness.services.db.pool;
      const deadline = Date.now() + 20_000;
      let delivery: { status: string; last_error: string | null } | undefined;
      while (Date.now() < deadline) {
        ({
          rows: [delivery],
        } = await pool.query<{ status: string; last_error: string | null }>(
          'SELECT status::text, last_error FROM webhook_deliveries WHERE scrape_request_id = $1',
          [id],
        ));
        if (delivery?.status === 'failed') break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(delivery).toMatchObject({
        status: 'failed',
        last_error: expect.stringMatching(/only public addresses/),
      });
      expect(receiver.received).toHaveLength(0);
    },
  );
});

describe('scrape targets that lead inside', () => {
  it.each(Object.keys(PRIVATE_NAMES).filter((name) => name !== 'hooks.private-dns.test'))(
    'fails a store named %s (a private DNS answer) before connecting',
    async (domain) => {
      const response = await harness.post('/v1/scrapes', { domain });
      expect(response.status, JSON.stringify(response.body)).toBe(202);
      const failed = await harness.waitFor(response.body.id, ['done', 'failed']);
      expect(failed.status).toBe('failed');
      expect(failed.failureReason).toMatch(/only public addresses/);
    },
  );

  it.each([
    'open-redirect.test',
    'redirect-decimal.test',
    'redirect-v6.test',
    'redirect-name.test',
    'redirect-metadata.test',
  ])('fails %s, which redirects to a private address, without following it', async (domain) => {
    const response = await harness.post('/v1/scrapes', { domain });
    expect(response.status, JSON.stringify(response.body)).toBe(202);
    const failed = await harness.waitFor(response.body.id, ['done', 'failed']);
    expect(failed.status).toBe('failed');
    // another host than the store's own: never followed (the storefront "moved"), so the private
    // address is never even resolved or connected to; the egress client's own refusal of a private
    // redirect target is tested in test/scrapes/egress.test.ts
    expect(failed.failureReason).toMatch(
      new RegExp(`^${domain.replace(/\./g, '\\.')} moved: / redirects to `),
    );
    expect(privateService.requests).toEqual([]);
  });
});
