// The scheduled-probe job of one watch (see probe-schedule.ts): under the watch's row lock, a
// tracked watch gets a queued probe and its next tick one interval later, in one transaction; a
// paused or deleted watch gets neither, which ends its schedule.
import type pg from 'pg';
import { z } from 'zod';
import { inTransaction } from '../../platform/database/transaction.ts';
import { queueProbe, scheduleNextProbe } from './probe-schedule.ts';

const Payload = z.object({ signalId: z.number().int().positive() });

export function probeTickTask(deps: { pool: pg.Pool; clock: () => Date; intervalMs: number }) {
  return async (payload: unknown): Promise<void> => {
    const { signalId } = Payload.parse(payload);
    await inTransaction(deps.pool, async (client) => {
      const {
        rows: [watch],
      } = await client.query<{ status: string }>(
        'SELECT status::text AS status FROM signals WHERE id = $1 FOR UPDATE',
        [signalId],
      );
      if (watch?.status !== 'tracked') return;
      const now = deps.clock();
      await queueProbe(client, signalId, 'scheduled', now);
      await scheduleNextProbe(client, signalId, new Date(now.getTime() + deps.intervalMs));
    });
  };
}
