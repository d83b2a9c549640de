// A subscription over HTTP (server-sent events: GraphiQL, the operations console, any SSE client) is
// admitted once, when it starts, but may stay open for days. Its caller's credential is checked
// again every STREAM_RECHECK_MS through the key cache, so a revoked key (or a key minted while an
// open-dev stream runs) ends the stream within the cache's TTL: one last event carries the refusal,
// then the stream completes. GraphQL over WebSocket closes its sockets the same way (websocket.ts).
import type { ExecutionResult } from 'graphql';
import { ApiError } from '../platform/errors.ts';

/** how often an open stream's credential is checked again (through the key cache, no database read) */
export const STREAM_RECHECK_MS = 1_000;

/** The caller still may read: true, false (refused), or a rejection that is not a refusal (an outage: keep the stream). */
export type StillAdmitted = () => Promise<boolean>;

const REVOKED = Symbol('revoked');

export const streamRevoked = () =>
  new ApiError(
    'unauthorized',
    'The credential this subscription was opened with is no longer valid (revoked, or open-dev mode ended): the stream has ended.',
  );

/** `source`'s events until the credential is refused, then one event with the refusal, then the end. */
export function endOnRevocation(
  source: AsyncIterable<ExecutionResult>,
  stillAdmitted: StillAdmitted,
  intervalMs: number = STREAM_RECHECK_MS,
): AsyncIterableIterator<ExecutionResult> {
  const iterator = source[Symbol.asyncIterator]();
  let signalRevoked!: () => void;
  const revoked = new Promise<typeof REVOKED>(
    (resolve) => (signalRevoked = () => resolve(REVOKED)),
  );
  let finished = false;
  let checking = false;
  const timer = setInterval(() => {
    if (checking) return;
    checking = true;
    stillAdmitted().then(
      (admitted) => {
        checking = false;
        if (!admitted) signalRevoked();
      },
      // not a refusal (the database is down, say): the stream goes on; the next tick asks again
      () => (checking = false),
    );
  }, intervalMs);
  timer.unref();

  const finish = async () => {
    if (finished) return;
    finished = true;
    clearInterval(timer);
    await iterator.return?.();
  };

  const stream: AsyncIterableIterator<ExecutionResult> = {
    async next() {
      if (finished) return { done: true, value: undefined };
      const outcome = await Promise.race([iterator.next(), revoked]);
      if (outcome === REVOKED) {
        void finish().catch(() => undefined);
        return { done: false, value: { errors: [streamRevoked()] } };
      }
      if (outcome.done) await finish();
      return outcome;
    },
    async return() {
      await finish();
      return { done: true, value: undefined };
    },
    async throw(error?: unknown) {
      await finish();
      throw error;
    },
    [Symbol.asyncIterator]() {
      return stream;
    },
  };
  return stream;
}
