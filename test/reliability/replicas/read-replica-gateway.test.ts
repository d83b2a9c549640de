// The gateway as deployed with a read replica (DATABASE_READ_URL): a gateway process on a real
// PostgreSQL primary whose streaming replica has stopped replaying WAL, with a lag bound long
// enough that the replica keeps serving. Catalog reads then show the replica's older data, while
// everything that must see its own write is read on the primary and works at once: a key just
// minted, a scrape just requested and run, a watch just created and its probe just finished.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runKeysCommand } from '../../../app/cli/keys.ts';
import { loadConfig } from '../../../src/platform/config.ts';
import {
  startFixtureStorefronts,
  type FixtureStorefronts,
} from '../../scrapes/support/fixture-storefronts.ts';
import {
  startStockStorefront,
  type StockStorefront,
} from '../../signals/support/stock-storefront.ts';
import { skipWithout } from '../../support/skip-without.ts';
import {
  hasPostgresBinaries,
  startStreamingPair,
  type StreamingPair,
} from '../../support/streaming-replica.ts';
import { startGatewayProcess, type GatewayProcess } from '../support/gateway-process.ts';
import { getJson, postJson } from '../support/http.ts';
import { pollUntil } from '../../support/poll.ts';

const DATABASE = 'store_intelligence';

describe.skipIf(skipWithout(hasPostgresBinaries))(
  'a gateway reading the catalog from a replica that stopped replaying (needs PostgreSQL binaries with pg_basebackup)',
  () => {
    let pair: StreamingPair;
    let primary: pg.Client;
    let fixtures: FixtureStorefronts;
    let storefront: StockStorefront;
    let gateway: GatewayProcess;
    /** the key the second test mints; the later ones use it */
    let auth: Record<string, string> = {};

    beforeAll(async () => {
      [pair, fixtures, storefront] = await Promise.all([
        startStreamingPair(),
        startFixtureStorefronts(),
        startStockStorefront(),
      ]);
      const admin = new pg.Client({ connectionString: pair.primaryUrl() });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${DATABASE}`);
      await admin.end();
      gateway = await startGatewayProcess({
        DATABASE_URL: pair.primaryUrl(DATABASE),
        DATABASE_READ_URL: pair.replicaUrl(DATABASE),
        // the replica keeps serving however far behind it falls: every read it does not take is one
        // the service routes to the primary on purpose
        DATABASE_READ_MAX_LAG_MS: '600000',
        RESPONSE_CACHE_TTL_MS: '0',
        EGRESS_OVERRIDES: `${fixtures.overrides},${storefront.overrides}`,
        EGRESS_HOST_INTERVAL_MS: '0',
      });
      primary = new pg.Client({ connectionString: pair.primaryUrl(DATABASE) });
      await primary.connect();
      const {
        rows: [store],
      } = await primary.query<{ id: number }>(
        "INSERT INTO stores (domain, name) VALUES ('stock.test', 'Stock Shop') RETURNING id",
      );
      await primary.query(
        `INSERT INTO products (store_id, handle, title, price, is_best_seller, best_seller_rank)
       VALUES ($1, 'tee', 'Tee', 20, true, 1), ($1, 'mug', 'Mug', 12.5, true, 2)`,
        [store!.id],
      );
      // a store no scrape or probe observes: its name changes only by the rename below
      await primary.query("INSERT INTO stores (domain, name) VALUES ('quiet.test', 'Quiet Shop')");
      await pair.waitForReplay();
      await pair.pauseReplay();
    }, 180_000);
    afterAll(async () => {
      await gateway?.stop();
      await primary?.end();
      await Promise.all([pair?.stop(), fixtures?.close(), storefront?.close()]);
    });

    it('serves catalog reads from the replica: a rename on the primary is not seen while it does not replay', async () => {
      await primary.query(
        "UPDATE stores SET name = 'Renamed on the primary' WHERE domain IN ('stock.test', 'quiet.test')",
      );
      // a replica check that does not answer in time (a loaded machine) sends reads to the primary
      // until the next check finds the replica fresh: the replica's answer comes within a few checks
      const fromReplica = (domain: string, name: string) =>
        pollUntil(
          () => getJson(`${gateway.baseUrl}/v1/stores/${domain}`),
          (answer) => answer.body.name === name,
          10_000,
        );
      const store = await fromReplica('stock.test', 'Stock Shop');
      expect(store.status).toBe(200);
      expect(store.body.name).toBe('Stock Shop');
      expect((await fromReplica('quiet.test', 'Quiet Shop')).body.name).toBe('Quiet Shop');
      const health = await getJson(`${gateway.baseUrl}/v1/health`);
      expect(health.body.backends.readReplicas).toEqual({ ok: true, backend: 'postgres-replicas' });
    });

    it('accepts a key just minted, and leaves open-dev mode at once', async () => {
      const printed: string[] = [];
      const config = loadConfig({ DATABASE_URL: pair.primaryUrl(DATABASE), LOG_LEVEL: 'silent' });
      const code = await runKeysCommand(
        ['create', '--account', 'replica-test', '--plan', 'pro'],
        { out: (t) => printed.push(t), err: () => undefined },
        config,
      );
      expect(code).toBe(0);
      const key = printed[0]!.trim();
      expect(
        (
          await getJson(`${gateway.baseUrl}/v1/stores/stock.test`, {
            authorization: `Bearer ${key}`,
          })
        ).status,
      ).toBe(200);
      expect((await getJson(`${gateway.baseUrl}/v1/stores/stock.test`)).status).toBe(401);
      auth = { authorization: `Bearer ${key}` };
    });

    it('shows a scrape just requested, and runs it to done', async () => {
      const requested = await postJson(
        `${gateway.baseUrl}/v1/scrapes`,
        { domain: 'shop-a.test' },
        auth,
      );
      expect(requested.status).toBe(202);
      const id = requested.body.id as string;
      const shown = await getJson(`${gateway.baseUrl}/v1/scrapes/${id}`, auth);
      expect(shown.status).toBe(200);
      const done = await pollUntil(
        () => getJson(`${gateway.baseUrl}/v1/scrapes/${id}`, auth),
        (r) => r.body.status === 'done' || r.body.status === 'failed',
        60_000,
      );
      expect(done.body.status).toBe('done');
    });

    it('shows a watch just created, and its first probe once finished', async () => {
      const created = await postJson(
        `${gateway.baseUrl}/v1/signals`,
        { domain: 'stock.test' },
        auth,
      );
      expect(created.status).toBe(201);
      expect((await getJson(`${gateway.baseUrl}/v1/signals/stock.test`, auth)).status).toBe(200);
      const probe = await pollUntil(
        () => getJson(`${gateway.baseUrl}/v1/signals/stock.test/probe`, auth),
        (r) => r.status === 200 && ['done', 'failed'].includes(r.body.progress?.status),
        60_000,
      );
      expect(probe.body).toMatchObject({ kind: 'first', progress: { status: 'done' } });
    });

    it("shows the primary's writes on catalog reads once the replica replays again", async () => {
      await pair.resumeReplay();
      await pair.waitForReplay();
      // stock.test's watch probed it meanwhile, writing the name its storefront shows, so the rename
      // is checked on a store nothing observes
      const store = await getJson(`${gateway.baseUrl}/v1/stores/quiet.test`, auth);
      expect(store.body.name).toBe('Renamed on the primary');
      expect((await getJson(`${gateway.baseUrl}/v1/stores/shop-a.test`, auth)).status).toBe(200);
    });
  },
);
