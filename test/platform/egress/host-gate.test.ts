import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DatabaseHostGate } from '../../../src/platform/egress/host-gate.ts';
import { createTestDatabase, type TestDatabase } from '../../support/database.ts';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase({ empty: true });
});
afterAll(async () => {
  await db?.drop();
});

describe('the database host gate', () => {
  it('takes and leaves hosts many times on one pooled session without piling up listeners on it', async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => {
      if (warning.name === 'MaxListenersExceededWarning') warnings.push(warning);
    };
    process.on('warning', onWarning);
    const gate = new DatabaseHostGate(db.url);
    try {
      // a crawler takes turns on hosts back to back: the pool hands the same connection back each time
      for (let turn = 0; turn < 15; turn++) {
        const leave = await gate.enter(`shop-${turn}.example`, 5_000);
        leave();
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.map((warning) => warning.message)).toEqual([]);
    } finally {
      process.off('warning', onWarning);
      await gate.close();
    }
  });
});
