// The catalog writer runs inside its caller's transaction, on one client: every statement waits for
// the one before (pg deprecates queueing a query on a client that is still executing one, and
// pg 9 removes it). Checked on a store's first observation and on a second one that is diffed
// against the first (the path that reads the previous products and apps).
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadReferenceData } from '../../src/seed/reference-data.ts';
import { writeObservation } from '../../src/storefront/catalog-writer.ts';
import type { ObservedProduct, StorefrontObservation } from '../../src/storefront/read-storefront.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';

let db: TestDatabase;
let pool: pg.Pool;

beforeAll(async () => {
  db = await createTestDatabase();
  pool = new pg.Pool({ connectionString: db.url, max: 2 });
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

const observation = (products: ObservedProduct[]): StorefrontObservation => ({
  domain: 'writer.test',
  name: 'Writer',
  description: null,
  themeName: 'Dawn',
  currency: 'USD',
  countryCode: 'US',
  socials: { instagram: null, facebook: null, tiktok: null, twitter: null, youtube: null, pinterest: null },
  emails: [],
  dropshipSignals: 0,
  apps: [],
  products,
  myshopifyDomain: null,
  linkedDomains: [],
});

/** Runs `fn` in a transaction on a client that records how many of its queries were in flight at once. */
async function withCountingClient<T>(fn: (client: pg.PoolClient) => Promise<T>): Promise<{ result: T; mostInFlight: number }> {
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
      writeObservation(client, observation([product('mug', 20), product('bowl', 12)]), { now: new Date('2026-11-01T10:00:00Z'), reference, legacyId: 'writer-1' }),
    );
    expect(first.result).toMatchObject({ known: false, changes: 0 });
    expect(first.mostInFlight).toBe(1);

    const second = await withCountingClient((client) =>
      writeObservation(client, observation([product('mug', 16), product('vase', 30)]), { now: new Date('2026-11-02T10:00:00Z'), reference, legacyId: 'writer-1' }),
    );
    // the previous observation was read: the price drop, the removed and the new product are its changes
    expect(second.result).toMatchObject({ known: true, changes: 3 });
    expect(second.mostInFlight).toBe(1);
  });
});
