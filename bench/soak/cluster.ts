// `npm run soak:cluster`: several processes under load, with faults, on one machine. A PostgreSQL
// primary with a streaming replica (made with pg_basebackup), a Redis of its own (append-only
// file), two gateways (catalog reads on the replica, no in-process worker), two job workers, a
// fixture storefront for scrapes and probes and an HTTPS webhook receiver, all on loopback. For
// the whole run it holds N clients on the soak's read workload (through a client-side balancer
// that, like a load balancer, sends a request the other way when a gateway does not answer),
// requests scrapes with a callback (each followed by an SSE subscription, resubscribed on a
// live gateway when its stream drops), creates watches and asks for probes, and counts a second
// key's store lookups; meanwhile it kills a gateway and a worker with SIGKILL (each started
// again), restarts the replica, and kills and restarts Redis.
//
// Then it checks that nothing was lost: every scrape request the database holds ended done with
// one webhook delivered once (one POST per scrape at the receiver, none twice), every probe
// ended done, no job failed, every scrape's subscriber saw it end, the shared daily quota
// counters hold the documented charging rule (one unit per answer written: a charge whose gateway
// died before answering is refunded), and no read was answered with an error. Writes
// bench/soak/cluster-results.{json,md}; exits 1 on any failed check.
//
//   npm run soak:cluster -- [--duration 120] [--clients 12] [--stores 2000] [--port-base N]
//   (needs PostgreSQL binaries with pg_basebackup, see test/support/streaming-replica.ts, and redis-server)
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import pg from 'pg';
import { runKeysCommand } from '../../app/cli/keys.ts';
import { loadConfig } from '../../src/platform/config.ts';
import { startHttpsReceiver } from '../../test/scrapes/support/https-receiver.ts';
import {
  startStockStorefront,
  type FixtureShop,
} from '../../test/signals/support/stock-storefront.ts';
import { sseEvents } from '../../test/support/sse-events.ts';
import { startStreamingPair } from '../../test/support/streaming-replica.ts';
import { startOwnRedis } from '../../test/reliability/support/redis-server.ts';
import { freePort } from '../processes.ts';
import { serviceProcess, type ServiceProcess } from './cluster-processes.ts';
import { buildWorkload, type SoakRequest } from './workload.ts';
import { unlimitedPlanLimits } from '../service-env.ts';

const { values: flags } = parseArgs({
  options: {
    duration: { type: 'string' },
    clients: { type: 'string' },
    stores: { type: 'string' },
    'port-base': { type: 'string' },
  },
});
const whole = (name: string, value: string | undefined, fallback: number) => {
  const n = Number(value ?? fallback);
  if (!Number.isInteger(n) || n <= 0)
    throw new Error(`${name} must be a positive whole number, not ${value}`);
  return n;
};
const durationS = whole('--duration', flags.duration, 120);
const clients = whole('--clients', flags.clients, 12);
const stores = whole('--stores', flags.stores, 2_000);
const portBase = flags['port-base'] ? whole('--port-base', flags['port-base'], 0) : undefined;
if (durationS < 60)
  throw new Error('--duration must be at least 60 s: the faults are spread over the run');

let nextPort = portBase;
const port = async () => (nextPort !== undefined ? nextPort++ : freePort());
const log = (line: string) =>
  process.stderr.write(`[soak:cluster ${new Date().toISOString().slice(11, 19)}] ${line}\n`);
const cleanups: Array<() => Promise<unknown>> = [];
const failures: string[] = [];
const startedAt = new Date().toISOString();
const loadBefore = loadavg();

/** enough shops that every scrape of a run is of a shop not scraped in the last five minutes (the forced re-scrape cooldown) */
const SHOPS = 150;
const shopHost = (i: number) => `soak-${i}.test`;
/** the quota key's daily limits: far above what a run uses, so nothing is refused and counts stay exact */
const planLimits = unlimitedPlanLimits({ countPerKey: true });

function soakShops(): Map<string, FixtureShop> {
  const shops = new Map<string, FixtureShop>();
  for (let i = 1; i <= SHOPS; i++) {
    const v = (n: number, stock: number) => ({
      id: i * 100 + n,
      sku: `S${i}-${n}`,
      title: `Size ${n}`,
      priceCents: 1_000 + n * 100,
      stock,
    });
    shops.set(shopHost(i), {
      name: `Soak Shop ${i}`,
      exposesStock: true,
      products: [
        { handle: 'tee', title: 'Tee', variants: [v(1, 50), v(2, 40)] },
        { handle: 'mug', title: 'Mug', variants: [v(3, 30)] },
        { handle: 'cap', title: 'Cap', variants: [v(4, 10)] },
      ],
    });
  }
  return shops;
}

async function mintKey(databaseUrl: string, account: string): Promise<string> {
  const printed: string[] = [];
  const config = loadConfig({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' });
  const code = await runKeysCommand(
    ['create', '--account', account, '--plan', 'pro', '--name', account],
    { out: (t) => printed.push(t), err: log },
    config,
  );
  if (code !== 0 || !printed[0]) throw new Error(`could not mint the key of ${account}`);
  return printed[0].trim();
}

/** A client-side balancer: round robin over the gateways that answer; a connection failure marks one down for a second and the request goes to the next. */
function balancer(gateways: ServiceProcess[]) {
  const downUntil = new Map<string, number>();
  let next = 0;
  /** refused: the connection was never made, so the request was never sent; broken: sent, and its answer lost */
  const counts = { redirected: 0, refused: 0, broken: 0 };
  async function send(path: string, init: RequestInit = {}): Promise<Response> {
    let lastError: unknown;
    for (let attempt = 0; attempt < gateways.length * 3; attempt++) {
      const gateway = gateways[next++ % gateways.length]!;
      if ((downUntil.get(gateway.name) ?? 0) > Date.now()) continue;
      try {
        return await fetch(`${gateway.baseUrl}${path}`, {
          ...init,
          signal: AbortSignal.timeout(15_000),
        });
      } catch (error) {
        lastError = error;
        const neverSent = (error as { cause?: { code?: string } }).cause?.code === 'ECONNREFUSED';
        if (neverSent) counts.refused++;
        else counts.broken++;
        downUntil.set(gateway.name, Date.now() + 1_000);
        // a write whose request may have arrived is never sent twice (its outcome is read back from
        // the database instead); reads (GET, a GraphQL query) and refused connections go elsewhere
        if (!neverSent && init.method && init.method !== 'GET' && path !== '/graphql') throw error;
        counts.redirected++;
      }
      await sleep(50);
    }
    throw lastError ?? new Error('no gateway answered');
  }
  return {
    send,
    counts,
    live: () => gateways.filter((g) => (downUntil.get(g.name) ?? 0) <= Date.now()),
  };
}

interface ScrapeFollow {
  id: string;
  domain: string;
  final?: string;
  resubscriptions: number;
}

async function soak() {
  // ---------------------------------------------------------------- the machines of the cluster
  const pair = await startStreamingPair({ port: await port(), replicaPort: await port() });
  cleanups.push(() => pair.stop());
  const admin = new pg.Client({ connectionString: pair.primaryUrl() });
  await admin.connect();
  await admin.query('CREATE DATABASE store_intelligence');
  await admin.end();
  const primaryUrl = pair.primaryUrl('store_intelligence');
  const redis = await startOwnRedis({ persistent: true, port: await port() });
  cleanups.push(() => redis.stop());
  const storefront = await startStockStorefront(soakShops());
  cleanups.push(() => storefront.close());
  const receiver = await startHttpsReceiver('hooks.test', [200]);
  cleanups.push(() => receiver.close());
  log(`primary :${pair.primaryPort}, replica :${pair.replicaPort}, redis :${redis.port}`);

  const quotaPrefix = `soak-quota-${randomBytes(4).toString('hex')}`;
  const env = {
    DATABASE_URL: primaryUrl,
    DATABASE_READ_URL: pair.replicaUrl('store_intelligence'),
    REDIS_URL: redis.url,
    QUOTA_REDIS_PREFIX: quotaPrefix,
    NODE_ENV: 'development',
    LOG_LEVEL: 'warn',
    WORKER_IN_PROCESS: 'false',
    WORKER_CONCURRENCY: '2',
    PLAN_LIMITS_JSON: planLimits,
    // every read on the database (the replica), not on the response cache
    RESPONSE_CACHE_TTL_MS: '0',
    EGRESS_OVERRIDES: `${storefront.overrides},hooks.test=https://127.0.0.1:${receiver.port}`,
    EGRESS_HOST_INTERVAL_MS: '0',
    NODE_EXTRA_CA_CERTS: receiver.caFile,
    CHROMIUM_PATH: '',
    SIGNAL_PROBE_INTERVAL_MINUTES: '10080',
  };
  const gateways = [
    serviceProcess({
      name: 'gateway-1',
      script: 'app/main.ts',
      env: { ...env, SEED_STORES: String(stores) },
      port: await port(),
      startTimeoutMs: 600_000,
    }),
    serviceProcess({
      name: 'gateway-2',
      script: 'app/main.ts',
      env: { ...env, SEED_STORES: '0' },
      port: await port(),
      startTimeoutMs: 300_000,
    }),
  ];
  const workers = [1, 2].map((n) =>
    serviceProcess({ name: `worker-${n}`, script: 'app/worker.ts', env }),
  );
  for (const p of [...gateways, ...workers]) cleanups.push(() => p.stop());
  log(`starting gateway-1 (migrates and seeds ${stores} stores), then gateway-2 and two workers`);
  await gateways[0]!.start();
  await Promise.all([gateways[1]!.start(), ...workers.map((w) => w.start())]);
  await pair.waitForReplay(120_000);

  const key = await mintKey(primaryUrl, 'soak');
  const quotaKey = await mintKey(primaryUrl, 'soak-quota');
  const auth = { authorization: `Bearer ${key}` };
  const lb = balancer(gateways);
  const workload = (await buildWorkload(gateways[1]!.baseUrl!, auth)).filter(
    (r) => r.path !== '/v1/scrapes',
  );
  const lookupDomain = new URL(
    `http://x${workload.find((r) => r.path.startsWith('/v1/stores/'))!.path}`,
  ).pathname.split('/')[3]!;
  log(`${workload.length} distinct reads; ${clients} clients for ${durationS} s`);

  // ---------------------------------------------------------------- the load
  const runUntil = Date.now() + durationS * 1_000;
  const reads = {
    ok: 0,
    errors: 0,
    statuses: {} as Record<string, number>,
    latencies: [] as number[],
  };
  const readClient = async (n: number) => {
    for (let i = n; Date.now() < runUntil; i += clients) {
      const request: SoakRequest = workload[i % workload.length]!;
      const started = performance.now();
      try {
        const response = await lb.send(request.path, {
          method: request.method,
          headers: { ...auth, ...request.headers },
          ...(request.body ? { body: request.body } : {}),
        });
        await response.arrayBuffer();
        reads.statuses[response.status] = (reads.statuses[response.status] ?? 0) + 1;
        if (response.ok) reads.ok++;
        else reads.errors++;
        reads.latencies.push(performance.now() - started);
      } catch {
        reads.errors++;
        reads.statuses.none = (reads.statuses.none ?? 0) + 1;
      }
    }
  };

  // store lookups of the quota key: each served one is one unit of storeLookups and of its daily
  // ceiling; one whose connection failed may have been charged before its gateway died (unknown)
  const quota = { served: 0, refused: 0, unknown: 0 };
  const quotaLb = balancer(gateways);
  const quotaClient = async () => {
    while (Date.now() < runUntil) {
      try {
        const response = await quotaLb.send(`/v1/stores/${lookupDomain}`, {
          headers: { authorization: `Bearer ${quotaKey}` },
        });
        await response.arrayBuffer();
        if (response.ok) quota.served++;
        else quota.refused++;
      } catch {
        // no gateway answered at all: counted in quotaLb's connection failures
      }
      await sleep(100);
    }
    quota.unknown = quotaLb.counts.broken;
  };

  // scrapes with a callback, each followed to its end by an SSE subscription
  const scrapes: ScrapeFollow[] = [];
  const scrapePosts = { accepted: 0, lost: 0, refused: {} as Record<string, number> };
  const follow = async (scrape: ScrapeFollow) => {
    const deadline = Date.now() + durationS * 1_000 + 180_000;
    for (let first = true; Date.now() < deadline; first = false) {
      if (!first) scrape.resubscriptions++;
      // first on gateway-1 (the one killed mid-run, so some streams are cut), then on any live one
      const live = lb.live();
      const gateway =
        first && gateways[0]!.running()
          ? gateways[0]!
          : (live[Math.floor(Math.random() * live.length)] ?? gateways[1]!);
      try {
        const response = await fetch(`${gateway.baseUrl}/graphql`, {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json', accept: 'text/event-stream' },
          body: JSON.stringify({
            query: 'subscription ($id: ID!) { scrapeStatus(id: $id) { id status } }',
            variables: { id: scrape.id },
          }),
        });
        if (response.status !== 200 || !response.body) throw new Error(`HTTP ${response.status}`);
        for await (const event of sseEvents(response.body)) {
          const status = event?.data?.scrapeStatus?.status as string | undefined;
          if (status === 'done' || status === 'failed') {
            scrape.final = status;
            return;
          }
        }
      } catch {
        // the stream dropped (its gateway died) or could not open: resubscribe on a live one
      }
      await sleep(300);
    }
  };
  const followers: Array<Promise<void>> = [];
  const scrapeClient = async () => {
    for (let i = 0; Date.now() < runUntil; i++) {
      const domain = shopHost((i % SHOPS) + 1);
      try {
        const response = await lb.send('/v1/scrapes', {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json' },
          body: JSON.stringify({
            domain,
            force: true,
            callbackUrl: `https://hooks.test/soak/${i}`,
          }),
        });
        const body = (await response.json()) as { id?: string };
        if (response.status === 202 && body.id) {
          scrapePosts.accepted++;
          const scrape: ScrapeFollow = { id: body.id, domain, resubscriptions: 0 };
          scrapes.push(scrape);
          followers.push(follow(scrape));
        } else
          scrapePosts.refused[response.status] = (scrapePosts.refused[response.status] ?? 0) + 1;
      } catch {
        scrapePosts.lost++; // its outcome is read from the database at the end
      }
      await sleep(1_500);
    }
  };

  // watches on scraped shops, then manual probes now and then
  const watches: string[] = [];
  const probePosts = { accepted: 0, other: {} as Record<string, number> };
  const watchClient = async () => {
    await sleep(durationS * 250); // after the first scrapes brought the shops into the catalog
    for (let i = 1; i <= 4 && Date.now() < runUntil; i++) {
      const response = await lb
        .send('/v1/signals', {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json' },
          body: JSON.stringify({ domain: shopHost(i) }),
        })
        .catch(() => undefined);
      if (response?.status === 201) watches.push(shopHost(i));
      else
        probePosts.other[`watch ${response?.status ?? 'lost'}`] =
          (probePosts.other[`watch ${response?.status ?? 'lost'}`] ?? 0) + 1;
      await response?.arrayBuffer();
    }
    while (Date.now() < runUntil) {
      await sleep(durationS * 100);
      for (const domain of watches) {
        const response = await lb
          .send(`/v1/signals/${domain}/probe`, { method: 'POST', headers: auth })
          .catch(() => undefined);
        await response?.arrayBuffer();
        if (response?.status === 202) probePosts.accepted++;
        else
          probePosts.other[String(response?.status ?? 'lost')] =
            (probePosts.other[String(response?.status ?? 'lost')] ?? 0) + 1;
      }
    }
  };

  // the faults, spread over the run
  const faults: Array<{ at: string; what: string; back: string }> = [];
  const elapsed = (since: number) => `${((Date.now() - since) / 1000).toFixed(1)} s`;
  const runStarted = Date.now();
  const at = (share: number) =>
    sleep(Math.max(0, runStarted + durationS * 1_000 * share - Date.now()));
  // each fault at its moment, its recovery in the background (a restart may outlast the next fault's moment)
  const fault = async (
    share: number,
    what: string,
    back: string,
    down: () => Promise<void>,
    pause: number,
    up: () => Promise<void>,
  ) => {
    await at(share);
    const t = Date.now();
    const when = elapsed(runStarted);
    await down();
    log(`fault: ${what}`);
    await sleep(pause);
    await up();
    faults.push({ at: when, what, back: `${back} ${elapsed(t)} after the fault` });
  };
  const chaos = () =>
    Promise.all([
      fault(
        0.15,
        'gateway-1 killed with SIGKILL, started again 5 s later',
        'serving again',
        () => gateways[0]!.kill(),
        5_000,
        () => gateways[0]!.start(),
      ),
      fault(
        0.35,
        'worker-1 killed with SIGKILL, started again 5 s later',
        'running again',
        () => workers[0]!.kill(),
        5_000,
        () => workers[0]!.start(),
      ),
      fault(
        0.5,
        'replica stopped (fast shutdown), started again 3 s later',
        'accepting connections',
        () => pair.stopReplica(),
        3_000,
        () => pair.startReplica(),
      ),
      fault(
        0.7,
        'Redis killed with SIGKILL, started again 3 s later (append-only file)',
        'accepting connections',
        () => redis.stop(),
        3_000,
        () => redis.start(),
      ),
    ]);

  await Promise.all([
    ...Array.from({ length: clients }, (_, n) => readClient(n)),
    quotaClient(),
    scrapeClient(),
    watchClient(),
    chaos(),
  ]);
  log(
    `load over: ${reads.ok} reads answered, ${scrapePosts.accepted} scrapes requested; waiting for the work to finish`,
  );

  // ---------------------------------------------------------------- nothing lost?
  const db = new pg.Pool({ connectionString: primaryUrl, max: 2 });
  cleanups.push(() => db.end());
  const waitFor = async (what: string, done: () => Promise<boolean>, timeoutMs: number) => {
    const deadline = Date.now() + timeoutMs;
    while (!(await done().catch(() => false))) {
      if (Date.now() > deadline) {
        failures.push(`${what} within ${timeoutMs / 1000} s`);
        return false;
      }
      await sleep(1_000);
    }
    return true;
  };
  const soakAccount = `(SELECT id FROM accounts WHERE external_id = 'soak')`;
  await waitFor(
    'every scrape request finished',
    async () =>
      (
        await db.query(
          `SELECT count(*)::int AS n FROM scrape_requests WHERE account_id = ${soakAccount} AND status NOT IN ('done', 'failed')`,
        )
      ).rows[0].n === 0,
    240_000,
  );
  await waitFor(
    'every webhook delivered',
    async () =>
      (
        await db.query(
          `SELECT count(*)::int AS n FROM webhook_deliveries WHERE status <> 'delivered'`,
        )
      ).rows[0].n === 0,
    240_000,
  );
  await waitFor(
    'every probe finished',
    async () =>
      (
        await db.query(
          `SELECT count(*)::int AS n FROM signal_probes WHERE status NOT IN ('done', 'failed')`,
        )
      ).rows[0].n === 0,
    240_000,
  );
  await Promise.race([Promise.all(followers), sleep(30_000)]);

  const { rows: scrapeRows } = await db.query<{
    id: string;
    status: string;
    deliveries: number;
    delivered: number;
  }>(`
    SELECT r.id, r.status, count(d.id)::int AS deliveries, count(d.id) FILTER (WHERE d.status = 'delivered')::int AS delivered
      FROM scrape_requests r LEFT JOIN webhook_deliveries d ON d.scrape_request_id = r.id
     WHERE r.account_id = ${soakAccount} GROUP BY r.id, r.status`);
  const posts = receiver.received.map((r) => ({
    webhookId: r.headers['webhook-id'],
    scrapeId: JSON.parse(r.body).data?.id as string,
  }));
  const postsPerScrape = new Map<string, number>();
  for (const p of posts) postsPerScrape.set(p.scrapeId, (postsPerScrape.get(p.scrapeId) ?? 0) + 1);
  const webhookIds = new Set(posts.map((p) => p.webhookId));
  const notDone = scrapeRows.filter((r) => r.status !== 'done');
  const badOutbox = scrapeRows.filter((r) => r.deliveries !== 1 || r.delivered !== 1);
  const notPostedOnce = scrapeRows.filter((r) => postsPerScrape.get(r.id) !== 1);
  if (notDone.length)
    failures.push(
      `${notDone.length} scrape requests did not end done: ${JSON.stringify(notDone.slice(0, 5))}`,
    );
  if (badOutbox.length)
    failures.push(`${badOutbox.length} scrape requests without exactly one delivered webhook`);
  if (notPostedOnce.length)
    failures.push(
      `${notPostedOnce.length} scrape requests not POSTed exactly once to the receiver`,
    );
  if (webhookIds.size !== posts.length)
    failures.push(`${posts.length - webhookIds.size} webhook POSTs repeated a webhook-id`);
  if (scrapeRows.length < scrapePosts.accepted)
    failures.push(
      `${scrapePosts.accepted - scrapeRows.length} accepted scrapes missing from the database`,
    );

  const { rows: probes } = await db.query<{ status: string; kind: string; n: number }>(
    `SELECT status, kind, count(*)::int AS n FROM signal_probes GROUP BY 1, 2 ORDER BY 1, 2`,
  );
  if (probes.some((p) => p.status !== 'done'))
    failures.push(`probes not done: ${JSON.stringify(probes.filter((p) => p.status !== 'done'))}`);
  const {
    rows: [jobs],
  } = await db.query<{ failed: number; left: number }>(
    `SELECT count(*) FILTER (WHERE attempts >= max_attempts)::int AS failed, count(*) FILTER (WHERE run_at <= now())::int AS left FROM graphile_worker.jobs`,
  );
  if (jobs!.failed > 0) failures.push(`${jobs!.failed} jobs failed for good`);

  const unfinishedFollows = scrapes.filter((s) => s.final !== 'done');
  if (unfinishedFollows.length)
    failures.push(`${unfinishedFollows.length} scrape subscriptions did not see their scrape end`);

  // the shared daily counters against the documented rule (docs.md, "Charges of requests never
  // answered"): one unit per answer a gateway wrote. Every lookup answered is charged; a lookup whose
  // connection broke may have been answered just before its gateway died (charged) or not (refunded
  // once the dead process's lease lapsed), so it adds at most one. Once the load is over no charge is
  // provisional any more: every record was settled or refunded.
  const {
    rows: [quotaIds],
  } = await db.query<{ id: number }>(
    `SELECT k.id FROM api_keys k JOIN accounts a ON a.id = k.account_id WHERE a.external_id = 'soak-quota'`,
  );
  const day = new Date().toISOString().slice(0, 10);
  const reader = new Redis(redis.url, { maxRetriesPerRequest: 2 });
  // the quota key's provisional charges (another key's subscription still open may hold one of its own)
  const provisionalLeft = async () => {
    let left = 0;
    for (const records of await reader.keys(`${quotaPrefix}:provisional:*`)) {
      left += (await reader.hvals(records)).filter((record) =>
        record.includes(':account:soak-quota:'),
      ).length;
    }
    return left;
  };
  await waitFor(
    'every provisional charge of the quota key settled or refunded',
    async () => (await provisionalLeft()) === 0,
    60_000,
  );
  const provisional = await provisionalLeft();
  const perKey = Number((await reader.get(`${quotaPrefix}:day:${day}:key:${quotaIds!.id}`)) ?? 0);
  const bucket = Number(
    (await reader.get(`${quotaPrefix}:day:${day}:account:soak-quota:storeLookups`)) ?? 0,
  );
  reader.disconnect();
  // an error answered after admission (a 503 while the replica restarts) was written too: charged
  const quotaConsistent =
    provisional === 0 &&
    [perKey, bucket].every(
      (n) => n >= quota.served && n <= quota.served + quota.refused + quota.unknown,
    );
  if (!quotaConsistent) {
    failures.push(
      `daily counters ${perKey} (key) and ${bucket} (storeLookups) for ${quota.served} lookups answered (+${quota.refused} error answers, +${quota.unknown} whose connection broke), ${provisional} provisional records left`,
    );
  }
  if (reads.errors > 0)
    failures.push(
      `${reads.errors} reads answered with an error or not at all: ${JSON.stringify(reads.statuses)}`,
    );
  const unexpected = [...gateways, ...workers]
    .filter((p) => p.unexpectedExits > 0)
    .map((p) => p.name);
  if (unexpected.length) failures.push(`processes exited on their own: ${unexpected.join(', ')}`);

  // how much of the reading the replica did: transactions each server ran on the service's database
  const transactions = async (url: string) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return Number(
        (
          await client.query(
            `SELECT xact_commit FROM pg_stat_database WHERE datname = 'store_intelligence'`,
          )
        ).rows[0].xact_commit,
      );
    } finally {
      await client.end();
    }
  };
  const [primaryTransactions, replicaTransactions] = await Promise.all([
    transactions(primaryUrl),
    transactions(pair.replicaUrl('store_intelligence')),
  ]).catch(() => [NaN, NaN]);

  reads.latencies.sort((a, b) => a - b);
  const pct = (p: number) =>
    Math.round(
      reads.latencies[
        Math.min(reads.latencies.length - 1, Math.floor((p / 100) * reads.latencies.length))
      ] ?? NaN,
    );
  return {
    startedAt,
    command: `npm run soak:cluster -- --duration ${durationS} --clients ${clients} --stores ${stores}`,
    machine: {
      cpus: cpus().length,
      loadAverageBefore: loadBefore.map((n) => Number(n.toFixed(2))),
    },
    processes:
      'PostgreSQL primary + streaming replica, Redis (AOF), 2 gateways (reads on the replica), 2 workers',
    reads: {
      answered: reads.ok,
      errors: reads.errors,
      perSecond: Number((reads.ok / durationS).toFixed(1)),
      statuses: reads.statuses,
      latencyMs: { p50: pct(50), p99: pct(99), max: pct(100) },
      sentElsewhereAfterConnectionFailure: lb.counts.redirected,
      transactions: { primary: primaryTransactions, replica: replicaTransactions },
    },
    scrapes: {
      accepted: scrapePosts.accepted,
      postsWithoutAnswer: scrapePosts.lost,
      refused: scrapePosts.refused,
      inDatabase: scrapeRows.length,
      done: scrapeRows.filter((r) => r.status === 'done').length,
      webhooksDeliveredOnce: scrapeRows.length - badOutbox.length - notPostedOnce.length,
      webhookPosts: posts.length,
      subscriptionsSeenToTheEnd: scrapes.length - unfinishedFollows.length,
      resubscriptions: scrapes.reduce((n, s) => n + s.resubscriptions, 0),
    },
    watches: {
      created: watches.length,
      manualProbesAccepted: probePosts.accepted,
      otherAnswers: probePosts.other,
      probes,
    },
    jobs: jobs!,
    quota: {
      lookupsServed: quota.served,
      unanswered: quota.unknown,
      refused: quota.refused,
      keyDailyCounter: perKey,
      storeLookupsCounter: bucket,
      provisionalLeft: provisional,
      consistent: quotaConsistent,
    },
    faults,
    errorLogLines: [...gateways, ...workers].reduce((n, p) => n + p.errorLines.length, 0),
    errorLogSample: [...gateways, ...workers].flatMap((p) => p.errorLines).slice(0, 10),
    failures,
  };
}

function markdown(s: Awaited<ReturnType<typeof soak>>): string {
  return [
    `# Multi-process soak ${s.startedAt}`,
    '',
    `\`${s.command}\` — ${s.processes}; ${s.machine.cpus} cores, load average before ${s.machine.loadAverageBefore.join(' / ')}.`,
    '',
    '| figure | value |',
    '| --- | --- |',
    `| reads answered | ${s.reads.answered} (${s.reads.perSecond}/s), errors ${s.reads.errors}, p50 / p99 / max ${s.reads.latencyMs.p50} / ${s.reads.latencyMs.p99} / ${s.reads.latencyMs.max} ms; ${s.reads.sentElsewhereAfterConnectionFailure} sent to the other gateway after a connection failure |`,
    `| transactions on the service's database | replica ${s.reads.transactions.replica}, primary ${s.reads.transactions.primary} (writes, jobs, keys, scrapes, watches) |`,
    `| scrapes | ${s.scrapes.accepted} accepted (+${s.scrapes.postsWithoutAnswer} POSTs without an answer; other answers ${JSON.stringify(s.scrapes.refused)}), ${s.scrapes.inDatabase} in the database, ${s.scrapes.done} done, ${s.scrapes.webhooksDeliveredOnce} webhooks delivered exactly once (${s.scrapes.webhookPosts} POSTs) |`,
    `| subscriptions | ${s.scrapes.subscriptionsSeenToTheEnd} of ${s.scrapes.accepted} followed to the end, ${s.scrapes.resubscriptions} resubscriptions after a dropped stream |`,
    `| watches and probes | ${s.watches.created} watches, ${s.watches.manualProbesAccepted} manual probes accepted (other answers ${JSON.stringify(s.watches.otherAnswers)}: 429 is the probe cooldown); probes ${s.watches.probes.map((p) => `${p.kind} ${p.status} ${p.n}`).join(', ')} |`,
    `| jobs | ${s.jobs.failed} failed for good, ${s.jobs.left} due and not run |`,
    `| quotas | ${s.quota.lookupsServed} lookups answered (+${s.quota.refused} error answers, +${s.quota.unanswered} whose connection broke); daily counters: key ${s.quota.keyDailyCounter}, storeLookups ${s.quota.storeLookupsCounter}; ${s.quota.provisionalLeft} provisional charges left — ${s.quota.consistent ? 'one unit per answer written, as documented' : 'BREAKS the charging rule'} |`,
    `| error lines logged | ${s.errorLogLines} |`,
    '',
    '| fault | when | recovery |',
    '| --- | --- | --- |',
    ...s.faults.map((f) => `| ${f.what} | ${f.at} into the run | ${f.back} |`),
    '',
    s.failures.length ? `**Failed:** ${s.failures.join('; ')}` : 'All checks passed: nothing lost.',
    '',
  ].join('\n');
}

let exitCode = 1;
try {
  const summary = await soak();
  writeFileSync(
    new URL('./cluster-results.json', import.meta.url),
    `${JSON.stringify(summary, null, 2)}\n`,
  );
  const md = markdown(summary);
  writeFileSync(new URL('./cluster-results.md', import.meta.url), md);
  process.stdout.write(md);
  exitCode = summary.failures.length === 0 ? 0 : 1;
} catch (error) {
  log(`failed: ${(error as Error).stack ?? error}`);
} finally {
  for (const cleanup of cleanups.reverse())
    await cleanup().catch((error: unknown) => log(`cleanup: ${(error as Error).message}`));
}
process.exit(exitCode);
