// The real server on loopback over a catalog seeded as a first `npm start` seeds it (seed 1), for
// tests that act as a developer or an agent would: a browser, an MCP client, the typed client,
// the recipes followed literally. `stores` trades realism for time; the example values of
// src/seed/seeded-catalog.ts exist from 38 stores on.
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { buildServer } from '../../app/server.ts';
import type { Services } from '../../src/platform/services.ts';
import { seedCatalog } from '../../src/seed/seed-catalog.ts';
import {
  createTestServices,
  type CatalogTestServices,
  type TestServicesOptions,
} from './test-services.ts';

export interface SeededServer {
  app: FastifyInstance;
  services: Services;
  /** http://127.0.0.1:PORT */
  baseUrl: string;
  close(): Promise<void>;
}

/** Test services over a fresh database holding `stores` seeded stores (no server). */
export async function createSeededServices(
  stores: number,
  options: TestServicesOptions = {},
): Promise<CatalogTestServices> {
  const test = await createTestServices(options);
  await seedCatalog({
    pool: test.services.db.pool,
    stores,
    legacy: test.services.legacy,
    legacyIsJsonbTable: true,
  });
  return test;
}

export async function startSeededServer(options: { stores: number }): Promise<SeededServer> {
  const test = await createSeededServices(options.stores);
  const app = await buildServer(test.services);
  await app.listen({ host: '127.0.0.1', port: 0 });
  return {
    app,
    services: test.services,
    baseUrl: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`,
    async close() {
      await app.close();
      await test.close();
    },
  };
}
