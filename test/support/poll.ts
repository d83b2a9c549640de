// Waiting for something that happens in the background (a job, a reconnect, a replica) without a
// fixed sleep: poll with a deadline and report the last thing seen when it never happens.
/** Calls `probe` until `done` holds for its result (errors count as "not yet"); fails after timeoutMs. */
export async function pollUntil<T>(
  probe: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs: number,
  intervalMs = 200,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (done(value)) return value;
      last = value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline)
      throw new Error(
        `not reached within ${timeoutMs} ms; last: ${last instanceof Error ? last.message : JSON.stringify(last)}`,
      );
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
