// The catalog writer runs inside its caller's transaction, on one client: every statement waits for
// the one before (pg deprecates queueing a query on a client that is still executing one, and
// pg 9 removes it). Checked on a store's first observation and on a second one that is diffed
// against the first (the path that reads the previous products and apps). And two observations
// that write products sharing title words at once never deadlock on the product search vocabulary.
import { storefrontObservation } from '../support/storefront-observation.ts';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadReferenceData } from '../../src/seed/reference-data.ts';
import { writeObservation } from '../../src/storefront/catalog-writer.ts';
import type {
  ObservedProduct,
  StorefrontObservation,
} from '../../src/storefront/read-storefront.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';

let db: TestDatabase;
let pool: pg.Pool;

beforeAll(async () => {
  db = await createTestDatabase();
  pool = new pg.Pool({ connectionString: db.url, max: 4 });
});
afterAll(async () => {
  await pool?.end();
  await db?.drop();
});

const product = (handle: string, price: number): ObservedProduct => ({
  handle,
  title: handle,
  vendor: 'Writer Test',
  productType: 'Mugs',
  price,
  compareAtPrice: null,
  available: true,
  variantCount: 1,
  imageUrl: null,
  publishedAt: null,
  bestSellerRank: null,
});

const observation = (products: ObservedProduct[], domain = 'writer.test'): StorefrontObservation =>
  storefrontObservation({ domain, name: 'Writer', products });

/** Runs `fn` in a transaction on a client that records how many of its queries were in flight at once. */
async function withCountingClient<T>(
  fn: (client: pg.PoolClient) => Promise<T>,
): Promise<{ result: T; mostInFlight: number }> {
  const client = await pool.connect();
  let inFlight = 0;
  let mostInFlight = 0;
  const query = client.query.bind(client) as (...args: unknown[]) => Promise<unknown>;
  const counting = new Proxy(client, {
    get(target, property, receiver) {
      if (property !== 'query') return Reflect.get(target, property, receiver);
      return async (...args: unknown[]) => {
        inFlight++;
        mostInFlight = Math.max(mostInFlight, inFlight);
        try {
          return await query(...args);
        } finally {
          inFlight--;
        }
      };
    },
  });
  try {
    await client.query('BEGIN');
    const result = await fn(counting);
    await client.query('COMMIT');
    return { result, mostInFlight };
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  } finally {
    client.release();
  }
}

describe('writeObservation on one client', () => {
  it('never has two statements in flight, on a first observation and on one diffed against it', async () => {
    const reference = loadReferenceData();
    const first = await withCountingClient((client) =>
      writeObservation(client, observation([product('mug', 20), product('bowl', 12)]), {
        now: new Date('2026-11-01T10:00:00Z'),
        reference,
        legacyId: 'writer-1',
      }),
    );
    expect(first.result).toMatchObject({ known: false, changes: 0 });
    expect(first.mostInFlight).toBe(1);

    const second = await withCountingClient((client) =>
      writeObservation(client, observation([product('mug', 16), product('vase', 30)]), {
        now: new Date('2026-11-02T10:00:00Z'),
        reference,
        legacyId: 'writer-1',
      }),
    );
    // the previous observation was read: the price drop, the removed and the new product are its changes
    expect(second.result).toMatchObject({ known: true, changes: 3 });
    expect(second.mostInFlight).toBe(1);
  });
});

describe('two observations at once whose products share title words', () => {
  const vocabulary = async (terms: string[]) => {
    const { rows } = await pool.query<{ term: string; products: number }>(
      'SELECT term, products FROM product_search_vocabulary WHERE term = ANY($1::text[]) ORDER BY term',
      [terms],
    );
    return Object.fromEntries(rows.map((r) => [r.term, r.products]));
  };

  it('never deadlock on the vocabulary, and its counts stay exact', async () => {
    const reference = loadReferenceData();
    const day = (d: number) => ({
      now: new Date(Date.UTC(2026, 10, d, 10)),
      reference,
      legacyId: `pair-${d}`,
    });
    // each store holds a product whose word the other one is about to add, and adds the other's word
    const a = (products: ObservedProduct[]) => observation(products, 'pair-a.test');
    const b = (products: ObservedProduct[]) => observation(products, 'pair-b.test');
    await withCountingClient((client) =>
      writeObservation(client, a([{ ...product('alpha', 10), title: 'Quokkaword Alphaword' }]), {
        ...day(3),
        legacyId: 'pair-a',
      }),
    );
    await withCountingClient((client) =>
      writeObservation(client, b([{ ...product('zeta', 10), title: 'Wombatword Zetaword' }]), {
        ...day(3),
        legacyId: 'pair-b',
      }),
    );
    expect(await vocabulary(['quokkaword', 'wombatword'])).toEqual({
      quokkaword: 1,
      wombatword: 1,
    });

    // A adds a Wombatword product and removes its Quokkaword one; B the other way round. A's removal
    // waits until B has written its products or is waiting on A: the order in which, before, A held
    // wombatword (its upsert) and wanted quokkaword (its delete) while B held quokkaword and wanted wombatword.
    const clientA = await pool.connect();
    const clientB = await pool.connect();
    try {
      const pidB = (await clientB.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!
        .pid;
      let bWroteProducts = false;
      const bBlocked = async () => {
        const {
          rows: [row],
        } = await pool.query<{ waiting: boolean }>(
          `SELECT wait_event_type = 'Lock' AS waiting FROM pg_stat_activity WHERE pid = $1`,
          [pidB],
        );
        return row?.waiting === true;
      };
      const gate = async () => {
        const deadline = Date.now() + 10_000;
        while (!bWroteProducts && !(await bBlocked())) {
          if (Date.now() > deadline)
            throw new Error('B neither wrote its products nor waited on A');
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      };
      const intercept = (
        client: pg.PoolClient,
        before: (text: string) => Promise<void>,
        after: (text: string) => void,
      ) => {
        const query = client.query.bind(client) as (...args: unknown[]) => Promise<unknown>;
        return new Proxy(client, {
          get(target, property, receiver) {
            if (property !== 'query') return Reflect.get(target, property, receiver);
            return async (...args: unknown[]) => {
              const text = typeof args[0] === 'string' ? args[0] : '';
              await before(text);
              const result = await query(...args);
              after(text);
              return result;
            };
          },
        });
      };
      const inTransaction = async (client: pg.PoolClient, write: () => Promise<unknown>) => {
        await client.query('BEGIN');
        try {
          const result = await write();
          await client.query('COMMIT');
          return result;
        } catch (error) {
          await client.query('ROLLBACK');
          throw error;
        }
      };
      const tracedA = intercept(
        clientA,
        async (text) => void (text.startsWith('DELETE FROM products') && (await gate())),
        () => undefined,
      );
      const tracedB = intercept(
        clientB,
        async () => undefined,
        (text) => void (text.includes('INSERT INTO products') && (bWroteProducts = true)),
      );
      const [wroteA, wroteB] = await Promise.allSettled([
        inTransaction(clientA, () =>
          writeObservation(
            tracedA,
            a([{ ...product('wombat', 11), title: 'Wombatword Vaseword' }]),
            { ...day(4), legacyId: 'pair-a' },
          ),
        ),
        inTransaction(clientB, () =>
          writeObservation(
            tracedB,
            b([{ ...product('quokka', 11), title: 'Quokkaword Cupword' }]),
            { ...day(4), legacyId: 'pair-b' },
          ),
        ),
      ]);
      expect(wroteA).toMatchObject({ status: 'fulfilled' });
      expect(wroteB).toMatchObject({ status: 'fulfilled' });
    } finally {
      clientA.release();
      clientB.release();
    }
    // one product holds each word now, as before; the removed ones' words are counted out
    expect(
      await vocabulary([
        'alphaword',
        'cupword',
        'quokkaword',
        'vaseword',
        'wombatword',
        'zetaword',
      ]),
    ).toEqual({
      alphaword: 0,
      cupword: 1,
      quokkaword: 1,
      vaseword: 1,
      wombatword: 1,
      zetaword: 0,
    });
  });
});

describe('an install of an app not detectable from a storefront', () => {
  it('stays as recorded: a scrape neither sees it installed nor sees it gone', async () => {
    const reference = loadReferenceData();
    const {
      rows: [shown, unseen],
    } = await pool.query<{ id: number }>(
      `INSERT INTO apps (slug, name, category, detection_patterns, install_count) VALUES
         ('shown-app', 'Shown', 'Reviews', '{shown-widget}', 0),
         ('admin-only-app', 'Admin only', 'Dropshipping', '{}', 1)
       RETURNING id`,
    );
    const shownApp = {
      id: shown!.id,
      slug: 'shown-app',
      name: 'Shown',
      category: 'Reviews',
      patterns: [/shown-widget/i],
    };
    const write = (apps: (typeof shownApp)[], day: string) =>
      withCountingClient((client) =>
        writeObservation(
          client,
          storefrontObservation({ domain: 'unseen.test', apps, products: [product('mug', 9)] }),
          { now: new Date(`${day}T10:00:00Z`), reference, legacyId: 'unseen-1' },
        ),
      );
    await write([shownApp], '2026-11-01');
    // recorded from another source than its storefront, as the seed or an import records installs
    await pool.query(
      `INSERT INTO store_apps (store_id, app_id) SELECT id, $1 FROM stores WHERE domain = 'unseen.test'`,
      [unseen!.id],
    );
    await pool.query(
      `INSERT INTO store_app_periods (store_id, app_id, installed_at, seen_installing)
         SELECT id, $1, '2026-10-01', false FROM stores WHERE domain = 'unseen.test'`,
      [unseen!.id],
    );

    const second = await write([], '2026-11-02');
    // the shown app's widget is gone: uninstalled; the admin-only app says nothing either way
    expect(second.result.changeRecords.map((c) => [c.changeType, c.subject])).toEqual([
      ['app_uninstalled', 'shown-app'],
    ]);
    const { rows } = await pool.query(
      `SELECT a.slug, (sa.app_id IS NOT NULL) AS current, p.uninstalled_at IS NULL AS open, a.install_count
         FROM apps a
         LEFT JOIN stores s ON s.domain = 'unseen.test'
         LEFT JOIN store_apps sa ON sa.app_id = a.id AND sa.store_id = s.id
         LEFT JOIN store_app_periods p ON p.app_id = a.id AND p.store_id = s.id
        WHERE a.slug IN ('shown-app', 'admin-only-app') ORDER BY a.slug`,
    );
    expect(rows).toEqual([
      { slug: 'admin-only-app', current: true, open: true, install_count: 1 },
      { slug: 'shown-app', current: false, open: false, install_count: 0 },
    ]);
    // the store's app count counts the install it keeps
    const { rows: counted } = await pool.query(
      `SELECT app_count FROM stores WHERE domain = 'unseen.test'`,
    );
    expect(counted).toEqual([{ app_count: 1 }]);
  });
});
