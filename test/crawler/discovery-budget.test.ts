// Discovery on the open web: a farm of storefronts whose every homepage links to 20 fresh names
// (a spider trap) grows the catalog only within discovery's budgets (depth, per linking store, per
// registrable domain, per day in all), and what is over budget waits rather than being dropped;
// a candidate that asks to wait an hour is not asked again before that hour; and every candidate is
// canonicalised at the door with the API's domain rules, the rest refused.
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { offerCandidates } from '../../src/storefront/catalog-candidates.sql.ts';
import { DAY_MS, startCatalogHarness, type CatalogHarness } from './support/catalog-harness.ts';

const BASES = ['a-trap.test', 'b-trap.test', 'c-trap.test', 'd-trap.test', 'e-trap.test'];
const BUDGET = { maxDepth: 2, daily: 12, perSource: 4, perDomain: 5 };

/** the 20 names `host`'s homepage links to: fresh every time, spread over the bases */
const linksOf = (host: string) =>
  Array.from(
    { length: 20 },
    (_, i) =>
      `n${createHash('sha1').update(`${host}/${i}`).digest('hex').slice(0, 10)}.${BASES[i % BASES.length]}`,
  );

let trap: http.Server;
let harness: CatalogHarness;

beforeAll(async () => {
  trap = http.createServer((req, res) => {
    const host = (req.headers.host ?? '').split(':')[0]!;
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/robots.txt') return res.writeHead(404).end();
    if (host === 'slow-down.a-trap.test' && url.pathname === '/products.json')
      return res.writeHead(429, { 'retry-after': '3600' }).end();
    if (url.pathname === '/') {
      const links = host === 'slow-down.a-trap.test' ? [] : linksOf(host);
      return res
        .writeHead(200, { 'content-type': 'text/html' })
        .end(
          `<html><head><title>${host}</title><script>Shopify.theme = {"name":"Dawn"};</script></head><body>${links.map((l) => `<a href="https://${l}/">${l}</a>`).join('')}</body></html>`,
        );
    }
    if (url.pathname === '/products.json') {
      return res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          products: [{ handle: 'mug', title: 'Mug', variants: [{ price: '9.00' }] }],
        }),
      );
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => trap.listen(0, '127.0.0.1', resolve));
  const { port } = trap.address() as AddressInfo;
  const trapOverrides = BASES.map((base) => `*.${base}=http://127.0.0.1:${port}`).join(',');
  harness = await startCatalogHarness({
    env: {
      EGRESS_OVERRIDES: trapOverrides,
      CATALOG_DISCOVERY_MAX_DEPTH: String(BUDGET.maxDepth),
      CATALOG_DISCOVERY_DAILY: String(BUDGET.daily),
      CATALOG_DISCOVERY_PER_SOURCE: String(BUDGET.perSource),
      CATALOG_DISCOVERY_PER_DOMAIN: String(BUDGET.perDomain),
    },
  });
});
afterAll(async () => {
  await harness?.close();
  await new Promise<void>((resolve) => trap.close(() => resolve()));
});

const linkedValidations = async () =>
  (
    await harness.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM catalog_candidates WHERE source = 'link' AND claimed_at IS NOT NULL`,
    )
  ).rows[0]!.n;

describe('a farm that links without end', () => {
  it('grows the catalog only within the budgets; what is over budget waits', async () => {
    await harness.offer(['root.a-trap.test']);
    await harness
      .waitForRow(
        `SELECT 1 AS done WHERE NOT EXISTS (SELECT 1 FROM catalog_candidates WHERE status = 'queued')
          AND (SELECT count(*) FROM catalog_candidates WHERE source = 'link' AND status <> 'pending') >= $1`,
        [BUDGET.daily],
        60_000,
      )
      .catch(async (e) => {
        console.log(
          (
            await harness.pool.query(
              `SELECT source, status, depth, count(*)::int, min(reason) FROM catalog_candidates GROUP BY 1,2,3`,
            )
          ).rows,
        );
        console.log(
          (
            await harness.pool.query(
              `SELECT trigger, outcome, count(*)::int FROM observation_log GROUP BY 1,2`,
            )
          ).rows,
        );
        throw e;
      });
    // nothing more is taken in meanwhile, however long the trap keeps linking
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    await harness.tick();
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(await linkedValidations()).toBe(BUDGET.daily);

    const pool = harness.pool;
    const { rows: perSource } = await pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM catalog_candidates WHERE source = 'link' AND claimed_at IS NOT NULL GROUP BY found_on`,
    );
    expect(Math.max(...perSource.map((r) => r.n))).toBeLessThanOrEqual(BUDGET.perSource);
    const { rows: perDomain } = await pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM catalog_candidates WHERE source = 'link' AND claimed_at IS NOT NULL GROUP BY registrable_domain`,
    );
    expect(Math.max(...perDomain.map((r) => r.n))).toBeLessThanOrEqual(BUDGET.perDomain);
    const {
      rows: [deepest],
    } = await pool.query<{ depth: number }>(
      `SELECT max(depth) AS depth FROM catalog_candidates WHERE claimed_at IS NOT NULL`,
    );
    expect(deepest!.depth).toBe(BUDGET.maxDepth);
    // 1 imported store + 12 linked ones
    const {
      rows: [stores],
    } = await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM stores`);
    expect(stores!.n).toBe(1 + BUDGET.daily);
    // the rest waits, saying why; nothing was rejected for being over budget
    const { rows: waiting } = await pool.query<{
      status: string;
      reason: string | null;
      depth: number;
    }>(
      `SELECT status::text, reason, depth FROM catalog_candidates WHERE source = 'link' AND claimed_at IS NULL`,
    );
    expect(waiting.length).toBeGreaterThan(100);
    expect(new Set(waiting.map((w) => w.status))).toEqual(new Set(['pending']));
    expect(waiting.every((w) => w.reason?.startsWith("waits: over discovery's budget"))).toBe(true);
    expect(waiting.some((w) => w.depth > BUDGET.maxDepth)).toBe(true);
  }, 120_000);

  it('takes in more of the waiting candidates once the day has passed', async () => {
    const before = await linkedValidations();
    await harness.advance(DAY_MS + 2 * 3_600_000);
    await harness.waitForRow(
      `SELECT 1 AS done WHERE (SELECT count(*) FROM catalog_candidates WHERE source = 'link' AND claimed_at IS NOT NULL) > $1`,
      [before],
      30_000,
    );
    const {
      rows: [deepest],
    } = await harness.pool.query<{ depth: number }>(
      `SELECT max(depth) AS depth FROM catalog_candidates WHERE claimed_at IS NOT NULL`,
    );
    expect(deepest!.depth).toBeLessThanOrEqual(BUDGET.maxDepth);
  }, 60_000);
});

describe('a candidate asking to wait', () => {
  it('is not asked again before its Retry-After (kept in the candidate: it outlives a restart)', async () => {
    await harness.offer(['slow-down.a-trap.test']);
    const row = await harness.waitForRow<{ next_at: Date; reason: string }>(
      `SELECT next_at, reason FROM catalog_candidates WHERE domain = 'slow-down.a-trap.test' AND status = 'pending' AND attempts = 1`,
    );
    expect(row.reason).toContain('Retry-After 3600');
    expect(row.next_at.getTime() - harness.clock.now().getTime()).toBeGreaterThan(3_500_000);
  }, 60_000);
});

describe('candidates at the door', () => {
  it('are canonicalised with the API domain rules; ports, IP literals, userinfo and non-names are refused', async () => {
    const offered = await offerCandidates(
      harness.pool,
      [
        'www.target.test:8443',
        'https://WWW.Fine-Shop.test/collections/all',
        'http://127.0.0.1:8080/',
        '[::1]:443',
        '169.254.169.254',
        'user:pw@stolen.test',
        'localhost',
        'demo.store.example',
      ],
      { source: 'moved', foundOn: 'door.test', now: harness.clock.now() },
    );
    expect(offered).toBe(2);
    const { rows } = await harness.pool.query<{ domain: string }>(
      `SELECT domain FROM catalog_candidates WHERE found_on = 'door.test' ORDER BY domain`,
    );
    expect(rows.map((r) => r.domain)).toEqual(['fine-shop.test', 'target.test']);
  });
});
