// `npx tsx bench/alerts/matching-cost.ts`: what saved-search alerts add to one observation. Makes
// its own database (ALERT_BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/bench_alert_matching,
// recreated), the app catalog of data/apps.json, ALERT_BENCH_STORES stores (200), then observes every
// store ALERT_BENCH_ROUNDS times (4), each time with a slightly different app set (a swap of one of
// about 6 apps, drawn from the 40 most common), through writeObservation in its own transaction:
// once with no alert, once with ALERT_BENCH_ALERTS alerts (300) of mixed filters (one or two apps,
// anyApp with a country, notApp, a vertical with minVisits, a country with minRevenue, a tld, a q).
// Prints the per-observation time (mean, p50, p95) of both and the alerts evaluated per observation.
import pg from 'pg';
import { ALERT_CANDIDATES } from '../../src/alerts/alert-matching.ts';
import { migrate } from '../../src/platform/database/migrate.ts';
import { upkeepMonthPartitions } from '../../src/platform/database/month-partitions.ts';
import { transactionOn } from '../../src/platform/database/transaction.ts';
import { upsertApps } from '../../src/seed/catalog-sql.ts';
import { createSampler, loadReferenceData } from '../../src/seed/reference-data.ts';
import { writeObservation } from '../../src/storefront/catalog-writer.ts';
import type { StorefrontObservation } from '../../src/storefront/read-storefront.ts';

const url =
  process.env.ALERT_BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/bench_alert_matching';
const storeCount = Number(process.env.ALERT_BENCH_STORES ?? 200);
const rounds = Number(process.env.ALERT_BENCH_ROUNDS ?? 4);
const alertCount = Number(process.env.ALERT_BENCH_ALERTS ?? 300);

// a fixed pseudo-random sequence, so both passes see the same observations
let seed = 42;
const random = () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
  return seed / 2_147_483_648;
};
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;

async function recreate(): Promise<void> {
  const admin = new URL(url);
  const name = admin.pathname.slice(1);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await client.query(`CREATE DATABASE "${name}"`);
  await client.end();
  await migrate(url);
}

function alertFilters(slugs: string[], verticals: string[]): Record<string, unknown>[] {
  const kinds = [
    () => ({ app: [pick(slugs)] }),
    () => ({ app: [pick(slugs), pick(slugs)] }),
    () => ({ anyApp: [pick(slugs), pick(slugs)], countryCode: pick(['US', 'GB', 'FR']) }),
    () => ({ notApp: [pick(slugs)], countryCode: 'US' }),
    () => ({ vertical: pick(verticals), minVisits: 100 }),
    () => ({ countryCode: pick(['US', 'GB', 'DE']), minRevenue: 1_000 }),
    () => ({ tld: 'test', app: [pick(slugs)] }),
    () => ({ q: pick(['shop', 'store', 'brand']) }),
  ];
  return Array.from({ length: alertCount }, (_, i) => kinds[i % kinds.length]!());
}

async function main() {
  await recreate();
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  const reference = loadReferenceData();
  const client = await pool.connect();
  await upsertApps(client, createSampler());
  client.release();
  await upkeepMonthPartitions(pool, new Date(), { history: 24, signals: 12 });
  const { rows: apps } = await pool.query<{ id: number; slug: string; name: string }>(
    'SELECT id, slug, name FROM apps ORDER BY id LIMIT 40',
  );
  const slugs = apps.map((a) => a.slug);
  const verticals = reference.verticals.map((v) => v.name);
  const {
    rows: [account],
  } = await pool.query<{ id: number }>(
    `INSERT INTO accounts (external_id, name, plan) VALUES ('bench', 'bench', 'pro') RETURNING id`,
  );

  // each store's app sets, round by round: about 6 apps, one swapped per round
  const plans = Array.from({ length: storeCount }, () => {
    let set = new Set(Array.from({ length: 6 }, () => pick(apps)));
    return Array.from({ length: rounds }, () => {
      const next = [...set];
      next.splice(Math.floor(random() * next.length), 1, pick(apps));
      set = new Set(next);
      return [...set];
    });
  });
  const filters = alertFilters(slugs, verticals);

  async function pass(label: string, withAlerts: boolean) {
    await pool.query('TRUNCATE stores, alerts RESTART IDENTITY CASCADE');
    if (withAlerts) {
      await pool.query(
        `INSERT INTO alerts (account_id, name, filter) SELECT $1, 'a' || n, f FROM unnest($2::jsonb[]) WITH ORDINALITY AS x(f, n)`,
        [account!.id, filters.map((f) => JSON.stringify(f))],
      );
    }
    const times: number[] = [];
    let candidates = 0;
    for (let round = 0; round < rounds; round++) {
      for (let i = 0; i < storeCount; i++) {
        const observation: StorefrontObservation = {
          domain: `store${i}.shop.test`,
          name: `Store ${i}`,
          description: null,
          themeName: 'Dawn',
          currency: 'USD',
          countryCode: pick(['US', 'GB', 'FR', 'DE']),
          socials: {
            instagram: null,
            facebook: null,
            tiktok: null,
            twitter: null,
            youtube: null,
            pinterest: null,
          },
          emails: [],
          dropshipSignals: 0,
          apps: plans[i]![round]!.map((a) => ({ ...a, category: null, patterns: [] })),
          products: [],
          myshopifyDomain: null,
          linkedDomains: [],
        };
        const c = await pool.connect();
        const started = performance.now();
        await transactionOn(c, () =>
          writeObservation(c, observation, {
            now: new Date(Date.now() + round * 60_000),
            reference,
            legacyId: i.toString(16).padStart(24, '0'),
          }),
        );
        const elapsed = performance.now() - started;
        // rounds after the first re-observe: the steady state of the crawler
        if (round > 0) times.push(elapsed);
        c.release();
        if (withAlerts && round > 0) {
          const {
            rows: [written],
          } = await pool.query(
            'SELECT country_code, vertical, industry, category, theme_name FROM stores WHERE domain = $1',
            [observation.domain],
          );
          const { rowCount } = await pool.query(ALERT_CANDIDATES, [
            observation.apps.map((a) => a.slug),
            written.country_code,
            written.vertical,
            written.industry,
            written.category,
            written.theme_name,
          ]);
          candidates += rowCount ?? 0;
        }
      }
    }
    times.sort((a, b) => a - b);
    const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!;
    const mean = times.reduce((s, t) => s + t, 0) / times.length;
    const { rows: matched } = await pool.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM alert_matches',
    );
    console.log(
      `${label}: ${times.length} observations, mean ${mean.toFixed(2)} ms, p50 ${at(0.5).toFixed(2)} ms, ` +
        `p95 ${at(0.95).toFixed(2)} ms; alerts evaluated per observation ${(candidates / times.length).toFixed(1)}, ` +
        `matches recorded ${matched[0]!.n}`,
    );
  }

  await pass('no alerts', false);
  await pass(`${alertCount} alerts`, true);
  await pass('no alerts again', false);
  await pass(`${alertCount} alerts again`, true);
  await pool.end();
}

await main();
