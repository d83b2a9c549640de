// POST /v1/signals/{domain}/probe: a manual probe, at most one per watch every 5 minutes (spec part
// 3). The cooldown counts from the watch's previous manual probe, checked under the watch's row
// lock so two concurrent requests cannot both pass it. Paused watches may be probed manually.
import type { GraphqlContext } from '../../graphql/context.ts';
import { guardDb } from '../../platform/database/sql.ts';
import { ApiError, notFound } from '../../platform/errors.ts';
import { inTransaction } from '../../platform/database/transaction.ts';
import { findWatch } from '../find-watch.ts';
import { clockOf } from '../watches.ts';
import { MANUAL_PROBE_COOLDOWN_MS, probeById, type ProbeRecord } from './probe-record.ts';
import { queueProbe } from './probe-schedule.ts';

export async function requestManualProbe(
  ctx: GraphqlContext,
  domain: string,
): Promise<ProbeRecord> {
  const watch = await findWatch(ctx, domain, 'write');
  const now = clockOf(ctx);
  return guardDb(
    inTransaction(ctx.services.db.pool, async (client) => {
      const {
        rows: [locked],
      } = await client.query('SELECT id FROM signals WHERE id = $1 FOR UPDATE', [watch.id]);
      if (!locked)
        throw notFound(`No watch on ${watch.domain} for this key's account.`, { domain });
      const {
        rows: [last],
      } = await client.query<{ created_at: Date }>(
        `SELECT created_at FROM signal_probes WHERE signal_id = $1 AND kind = 'manual' ORDER BY created_at DESC LIMIT 1`,
        [watch.id],
      );
      const wait = last ? last.created_at.getTime() + MANUAL_PROBE_COOLDOWN_MS - now.getTime() : 0;
      if (wait > 0) {
        const retryAfter = Math.ceil(wait / 1000);
        throw new ApiError(
          'rate_limited',
          `${watch.domain} was probed manually less than ${MANUAL_PROBE_COOLDOWN_MS / 60_000} minutes ago; the next manual probe may follow in ${retryAfter} s.`,
          {
            domain: watch.domain,
            cooldownSeconds: MANUAL_PROBE_COOLDOWN_MS / 1000,
            retryAfter,
            lastManualProbeAt: last!.created_at.toISOString(),
          },
          retryAfter,
        );
      }
      // the probe as it was accepted (queued), read in the transaction that queued it: read after the
      // commit, a worker that had already taken its job made the answer 'running' or even 'done'
      return (await probeById(client, await queueProbe(client, watch.id, 'manual', now)))!;
    }),
  );
}
