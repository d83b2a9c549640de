// A GraphQL subscription over SSE (graphql-yoga's "distinct connections" mode) held open for the
// whole test: events are collected as they arrive, and the test waits for the one it expects.
import { sseEvents } from '../../support/sse-events.ts';

export interface SseSubscription {
  /** every `data:` payload received so far, parsed */
  readonly events: any[];
  /** resolves with the first event (old or new) that satisfies `match`, or rejects after timeoutMs */
  waitFor(match: (event: any) => boolean, timeoutMs?: number): Promise<any>;
  /** whether the server ended the stream */
  readonly ended: boolean;
  close(): void;
}

export async function subscribeOverSse(
  graphqlUrl: string,
  query: string,
  variables: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Promise<SseSubscription> {
  const abort = new AbortController();
  const response = await fetch(graphqlUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...headers },
    body: JSON.stringify({ query, variables }),
    signal: abort.signal,
  });
  if (response.status !== 200 || !response.body)
    throw new Error(`subscription refused: HTTP ${response.status} ${await response.text()}`);

  const events: any[] = [];
  let ended = false;
  const listeners = new Set<() => void>();
  (async () => {
    try {
      for await (const event of sseEvents(response.body!)) {
        events.push(event);
        for (const listener of listeners) listener();
      }
    } catch {
      // aborted by close(), or the connection dropped: `ended` tells the test
    } finally {
      ended = true;
      for (const listener of listeners) listener();
    }
  })();

  return {
    events,
    get ended() {
      return ended;
    },
    waitFor(match, timeoutMs = 20_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = events.find(match);
          if (found !== undefined) return done(() => resolve(found));
          if (ended)
            done(() =>
              reject(
                new Error(
                  `the stream ended without the expected event; got ${JSON.stringify(events)}`,
                ),
              ),
            );
        };
        const timer = setTimeout(
          () =>
            done(() =>
              reject(
                new Error(
                  `no expected event within ${timeoutMs} ms; got ${JSON.stringify(events)}`,
                ),
              ),
            ),
          timeoutMs,
        );
        const done = (settle: () => void) => {
          clearTimeout(timer);
          listeners.delete(check);
          settle();
        };
        listeners.add(check);
        check();
      });
    },
    close: () => abort.abort(),
  };
}
