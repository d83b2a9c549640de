// Services as main.ts builds them, on a fresh migrated test database: embedded-default legacy
// store (JSONB table), in-process pub/sub, and a logger whose lines the test can read.
import type { Services } from '../../src/platform/services.ts';
import { createTestDatabase } from '../support/database.ts';
import { openServicesOn } from '../support/open-services.ts';

export interface TestServices extends Services {
  /** every log line written so far, raw JSON text */
  logLines: string[];
  close(): Promise<void>;
}

export async function openTestServices(
  options: { queryTimeoutMs?: number } = {},
): Promise<TestServices> {
  const testDb = await createTestDatabase();
  const opened = await openServicesOn(testDb.url, {}, options);
  return {
    ...opened.services,
    logLines: opened.logLines,
    async close() {
      await opened.close();
      await testDb.drop();
    },
  };
}
