// How a connection the server dropped is logged, by every pool of ours (the database's, the
// crawler's host gate): one line, never the pg client that pg attaches to the error.
import type { Logger } from '../logger.ts';

/**
 * Logs a connection the server dropped, as one line: its message and code, never the pg client
 * attached to it. 57P01: the server is shutting down, e.g. a restart, or the embedded PostgreSQL
 * stopping with the service (a Ctrl-C reaches the whole process group): expected, not a fault.
 */
export function connectionLossLogger(log: Logger, connection: string): (error: unknown) => void {
  return (error) => {
    const { message, code } = (error ?? {}) as { message?: string; code?: string };
    if (code === '57P01') log.info(`${connection} closed: the server is shutting down`);
    else log.warn({ err: { message, code } }, `${connection} failed`);
  };
}
