// One request in flight per host: a slow storefront (every answer takes 300 ms) counts the requests
// it is answering at once while several reads of it run together, as a scrape, a probe, a scheduled
// observation and a discovery validation of one store would: in one process (one storefront client)
// and across processes (clients with gates of their own, sharing only the database).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEgress } from '../../src/platform/egress/egress.ts';
import { DatabaseHostGate } from '../../src/platform/egress/host-gate.ts';
import { parseEgressOverrides } from '../../src/platform/egress/overrides.ts';
import {
  observeStorefront,
  validateStorefront,
  type StorefrontReader,
} from '../../src/storefront/read-storefront.ts';
import { createStorefrontClient } from '../../src/storefront/storefront-client.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';

const HOMEPAGE = `<html><head><title>Slow Shop</title><script>Shopify.theme = {"name":"Dawn"};</script></head><body></body></html>`;
const PRODUCTS = JSON.stringify({
  products: [{ handle: 'mug', title: 'Mug', variants: [{ price: '10.00' }] }],
});
const ANSWER_MS = 300;

let server: http.Server;
let port: number;
let db: TestDatabase;
const inFlight = new Map<string, number>();
const maxInFlight = new Map<string, number>();
let requests = 0;
let total = 0;
let maxTotal = 0;
const gates: DatabaseHostGate[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
  server = http.createServer((req, res) => {
    const host = (req.headers.host ?? '').split(':')[0]!;
    requests++;
    maxTotal = Math.max(maxTotal, ++total);
    const now = (inFlight.get(host) ?? 0) + 1;
    inFlight.set(host, now);
    maxInFlight.set(host, Math.max(maxInFlight.get(host) ?? 0, now));
    const url = new URL(req.url ?? '/', 'http://x');
    setTimeout(() => {
      inFlight.set(host, inFlight.get(host)! - 1);
      total--;
      if (url.pathname === '/robots.txt') res.writeHead(404).end();
      else if (url.pathname === '/')
        res.writeHead(200, { 'content-type': 'text/html' }).end(HOMEPAGE);
      else if (url.pathname === '/products.json')
        res.writeHead(200, { 'content-type': 'application/json' }).end(PRODUCTS);
      else res.writeHead(404).end();
    }, ANSWER_MS);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  await Promise.all(gates.map((gate) => gate.close()));
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await db?.drop();
});

/** A storefront reader as one process has it: its own egress client and host gate. */
function processReader(): StorefrontReader {
  const gate = new DatabaseHostGate(db.url);
  gates.push(gate);
  const egress = createEgress({
    overrides: parseEgressOverrides(
      `slow.test=http://127.0.0.1:${port},other.test=http://127.0.0.1:${port}`,
    ),
    timeoutMs: 5_000,
    maxBytes: 1_000_000,
    // no spacing: only the gate keeps requests apart
    hostIntervalMs: 0,
    userAgent: 'host-concurrency-test',
    gate,
  });
  return {
    client: createStorefrontClient(egress),
    apps: [],
    dropshipVocabulary: [],
    maxProductPages: 1,
  };
}

const read = async (reader: StorefrontReader, domain: string) =>
  observeStorefront(reader, await validateStorefront(reader, domain));

describe('one request in flight per host', () => {
  it('holds within one process: four reads of one slow store at once never overlap on it', async () => {
    maxInFlight.clear();
    const reader = processReader();
    const before = requests;
    const reads = await Promise.all([
      read(reader, 'slow.test'),
      read(reader, 'slow.test'),
      read(reader, 'slow.test'),
      read(reader, 'slow.test'),
    ]);
    expect(reads.map((r) => r.products.length)).toEqual([1, 1, 1, 1]);
    expect(requests - before).toBeGreaterThanOrEqual(4 * 4);
    expect(maxInFlight.get('slow.test')).toBe(1);
  });

  it('holds across processes sharing the database: three processes reading one slow store never overlap on it', async () => {
    maxInFlight.clear();
    const readers = [processReader(), processReader(), processReader()];
    await Promise.all(readers.map((reader) => read(reader, 'slow.test')));
    expect(maxInFlight.get('slow.test')).toBe(1);
  });

  it('does not serialise different hosts: two stores are read side by side', async () => {
    maxInFlight.clear();
    maxTotal = 0;
    const reader = processReader();
    await Promise.all([read(reader, 'slow.test'), read(reader, 'other.test')]);
    expect(maxTotal).toBe(2);
    expect(maxInFlight.get('slow.test')).toBe(1);
    expect(maxInFlight.get('other.test')).toBe(1);
  });
});
