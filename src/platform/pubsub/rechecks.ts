// Subscriptions that do not depend on every event arriving. Pub/sub is fire and forget: an event
// published while Redis was down, or by a process that died between its database write and its
// publish, never reaches anyone. So a subscription that follows state kept in the database
// interleaves its events with rechecks of that state: at once when the pub/sub says its channel is
// back after an outage, and every RECHECK_INTERVAL_MS in any case. The caller drops what it has
// already seen (rechecks may repeat an event).
import type { PubSub } from './pubsub.ts';

/** how often a subscription reads the truth again even when nothing says an event was lost */
export const RECHECK_INTERVAL_MS = 15_000;

export async function* withRechecks<T>(
  updates: AsyncIterator<T>,
  pubsub: Pick<PubSub, 'onResume'>,
  recheck: () => Promise<readonly T[]>,
  intervalMs = RECHECK_INTERVAL_MS,
): AsyncGenerator<T> {
  let wake: (() => void) | undefined;
  let due = false;
  const ask = () => {
    due = true;
    wake?.();
  };
  const timer = setInterval(ask, intervalMs);
  timer.unref();
  const stopListening = pubsub.onResume(ask);
  let next = updates.next();
  try {
    for (;;) {
      const woken = new Promise<'recheck'>((resolve) => {
        wake = () => resolve('recheck');
        if (due) resolve('recheck');
      });
      const winner = await Promise.race([next, woken]);
      wake = undefined;
      if (winner === 'recheck') {
        due = false;
        yield* await recheck();
        continue;
      }
      if (winner.done) return;
      next = updates.next();
      yield winner.value;
    }
  } finally {
    clearInterval(timer);
    stopListening();
  }
}
