// The seed contract (spec/store-intelligence-api.md) over real HTTP, against the service as an
// operator runs it (`tsx app/main.ts` in its own process) on the hand-worked catalog fixture: first
// in open-dev mode (no key exists), then with keys minted by the keys CLI (`npm run keys`) in
// another process, as a self-hoster does. Every answer is also checked against the error envelope
// and the served OpenAPI description (support/contract-client.ts).
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCatalogFixture } from '../support/catalog-fixture.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import {
  startGatewayProcess,
  type GatewayProcess,
} from '../reliability/support/gateway-process.ts';
import { pollUntil } from '../support/poll.ts';
import { catalogRules, scrapeRules, signalRules } from './support/catalog-rules.ts';
import { contractClient, expectError, type ContractClient } from './support/contract-client.ts';

const KEYS_CLI = fileURLToPath(new URL('../../app/cli/keys.ts', import.meta.url));
/** requests a minute from one address without a valid credential: small, so the limit shows */
const UNAUTHENTICATED_PER_MINUTE = 8;
/** the starter plan's per-minute rate, lowered so the limit shows; the suite's main key is pro */
const STARTER_PER_MINUTE = 4;

let db: TestDatabase;
let gateway: GatewayProcess;
let open: ContractClient;

/** `npm run keys -- …` against the service's database, as its own process. */
async function keysCli(...args: string[]): Promise<string> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', KEYS_CLI, ...args],
    {
      env: { ...process.env, DATABASE_URL: db.url, REDIS_URL: '', LOG_LEVEL: 'error' },
    },
  );
  return stdout.trim();
}

beforeAll(async () => {
  db = await createTestDatabase();
  const pool = new pg.Pool({ connectionString: db.url, max: 2 });
  await loadCatalogFixture(pool);
  await pool.end();
  gateway = await startGatewayProcess({
    DATABASE_URL: db.url,
    // nothing leaves the machine: queued scrapes and probes stay queued, which is what the rules read
    WORKER_IN_PROCESS: 'false',
    UNAUTHENTICATED_PER_MINUTE: String(UNAUTHENTICATED_PER_MINUTE),
    PLAN_LIMITS_JSON: JSON.stringify({ starter: { perMinute: STARTER_PER_MINUTE } }),
  });
  open = await contractClient(gateway.baseUrl);
});

afterAll(async () => {
  await gateway?.stop();
  await db?.drop();
});

const DISCOVERY = [
  '/',
  '/v1/llms.txt',
  '/v1/docs.md',
  '/v1/openapi.json',
  '/v1/health',
  '/v1/examples',
];

describe('open-dev mode: no key exists, requests without a key are accepted (part 5.3)', () => {
  it('says so in /v1/health', async () => {
    const health = await open.get('/v1/health');
    expect(health.status).toBe(200);
    expect(health.body.openDevMode).toBe(true);
  });

  it('part 9: the description is OpenAPI 3.1 at /v1/openapi.json, and every data route is under /v1', async () => {
    const document = (await open.get('/v1/openapi.json')).body;
    expect(document.openapi).toMatch(/^3\.1\./);
    const dataPaths = Object.keys(document.paths).filter((path) => path !== '/');
    expect(dataPaths.every((path) => path.startsWith('/v1/'))).toBe(true);
  });

  catalogRules(() => open);
  scrapeRules(() => open, 'open-dev-new-store.com', 'glow-skin.com');
  signalRules(() => open, 'dropfast.shop', 'a0a0a0a0a0a0a0a0a0a0a005');
});

describe('with keys minted by `npm run keys` (part 5)', () => {
  let pro: ContractClient;
  let proKey: string;
  let otherKey: string;
  let partnerKey: string;
  let starterKey: string;

  beforeAll(async () => {
    proKey = await keysCli('create', '--account', 'contract-pro', '--plan', 'pro');
    otherKey = await keysCli('create', '--account', 'contract-other', '--plan', 'pro');
    partnerKey = await keysCli(
      'create',
      '--account',
      'contract-partner',
      '--plan',
      'pro',
      '--scope',
      'signals:read',
    );
    starterKey = await keysCli('create', '--account', 'contract-starter', '--plan', 'starter');
    for (const key of [proKey, otherKey, partnerKey, starterKey]) expect(key).toMatch(/^\S{20,}$/);
    // the server learns that keys exist (open-dev mode ends) within its key cache's lifetime
    await pollUntil(
      () => open.get('/v1/stores'),
      (answer) => answer.status === 401,
      15_000,
    );
    pro = open.with({ authorization: `Bearer ${proKey}` });
  });

  it('part 5.9: a data route without a key or with an invalid one is 401 unauthorized, and says how a self-hoster mints a key', async () => {
    const missing = expectError(await open.get('/v1/stores/acme-apparel.com'), 401, 'unauthorized');
    expect(missing.message).toContain(
      'On a self-hosted server, mint one with: npm run keys -- create',
    );
    expectError(
      await open.get('/v1/stores', { authorization: 'Bearer sk_live_not_a_real_key_0000000000' }),
      401,
      'unauthorized',
    );
    expectError(await open.get('/v1/stores', { 'x-api-key': 'nope' }), 401, 'unauthorized');
    expect((await open.get('/v1/health')).body.openDevMode).toBe(false);
  });

  it('part 5.1: both headers are accepted; rate information comes in X-RateLimit- headers', async () => {
    for (const headers of [{ authorization: `Bearer ${proKey}` }, { 'x-api-key': proKey }] as Array<
      Record<string, string>
    >) {
      const answer = await open.get('/v1/stores?limit=1', headers);
      expect(answer.status).toBe(200);
      for (const name of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'])
        expect(answer.headers.get(name), name).toMatch(/^\d+$/);
    }
  });

  it('part 5.2: a key in the query string is refused (bad_request), even when valid, and never echoed', async () => {
    for (const name of ['api_key', 'apiKey', 'key', 'token']) {
      const refused = await open.get(`/v1/stores?${name}=${proKey}`);
      expectError(refused, 400, 'bad_request');
      expect(refused.text).not.toContain(proKey);
    }
  });

  it('part 5.4: discovery routes need no key and are not rate limited, past the per-address limit of keyless calls', async () => {
    for (let round = 0; round < UNAUTHENTICATED_PER_MINUTE + 4; round++) {
      for (const path of DISCOVERY) expect((await open.get(path)).status, path).toBe(200);
    }
    // the keyless data calls of this address are limited by now; a valid key from the same address never is
    const keyless = await open.get('/v1/stores');
    expect([401, 429]).toContain(keyless.status);
    expect((await pro.get('/v1/stores?limit=1')).status).toBe(200);
  });

  catalogRules(() => pro);
  scrapeRules(() => pro, 'keyed-new-store.com', 'cozy-nest.com');
  signalRules(() => pro, 'bella-beauty.co.uk', 'a0a0a0a0a0a0a0a0a0a0a006');

  it("parts 5.7 and 5.8: signals belong to the key's owner; a partner key (signals:read) reads a watched domain and is 403 on every write", async () => {
    expect(
      (await pro.request('POST', '/v1/signals', { body: { domain: 'acme-apparel.com' } })).status,
    ).toBe(201);
    const other = open.with({ authorization: `Bearer ${otherKey}` });
    expectError(await other.get('/v1/signals/acme-apparel.com/stats'), 404, 'not_found');
    expect((await other.get('/v1/signals')).body.data).toEqual([]);
    // another owner may watch the same store: 201, not 409
    expect(
      (await other.request('POST', '/v1/signals', { body: { domain: 'acme-apparel.com' } })).status,
    ).toBe(201);

    const partner = open.with({ 'x-api-key': partnerKey });
    expect((await partner.get('/v1/signals/acme-apparel.com/stats')).status).toBe(200);
    expect((await partner.get('/v1/signals/a0a0a0a0a0a0a0a0a0a0a001/sales')).status).toBe(200);
    const writes: Array<[string, string, unknown?]> = [
      ['POST', '/v1/signals', { domain: 'glow-skin.com' }],
      ['PATCH', '/v1/signals/acme-apparel.com', { status: 'paused' }],
      ['POST', '/v1/signals/acme-apparel.com/stop'],
      ['POST', '/v1/signals/acme-apparel.com/probe'],
      ['POST', '/v1/signals/acme-apparel.com/ads/probe'],
      ['DELETE', '/v1/signals/acme-apparel.com'],
    ];
    for (const [method, path, body] of writes) {
      const refused = await partner.request(method, path, { body });
      expect(expectError(refused, 403, 'unauthorized').details.reason, `${method} ${path}`).toBe(
        'scope',
      );
    }
    expect((await pro.get('/v1/signals/acme-apparel.com')).body.status).toBe('tracked');
  });

  it('part 8: past the per-minute rate, HTTP 429 rate_limited with Retry-After in seconds; another key is unaffected', async () => {
    const starter = open.with({ authorization: `Bearer ${starterKey}` });
    const answers = [];
    for (let i = 0; i <= STARTER_PER_MINUTE; i++)
      answers.push(await starter.get('/v1/stores?limit=1'));
    expect(answers.slice(0, STARTER_PER_MINUTE).map((a) => a.status)).toEqual(
      Array(STARTER_PER_MINUTE).fill(200),
    );
    const limited = answers[STARTER_PER_MINUTE]!;
    expect(expectError(limited, 429, 'rate_limited').details.bucket).toBe('perMinute');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
    expect((await pro.get('/v1/stores?limit=1')).status).toBe(200);
  });

  it('a key revoked with `npm run keys -- revoke` stops working', async () => {
    const listed = await keysCli('list', '--account', 'contract-other');
    expect(listed).toContain('contract-other');
    await keysCli('revoke', otherKey.slice(0, 12));
    const other = open.with({ authorization: `Bearer ${otherKey}` });
    await pollUntil(
      () => other.get('/v1/stores?limit=1'),
      (answer) => answer.status === 401,
      15_000,
    );
    expect((await pro.get('/v1/stores?limit=1')).status).toBe(200);
  });
});
