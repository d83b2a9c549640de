import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/platform/logger.ts';
import { Shutdown } from '../../src/platform/shutdown.ts';

const logger = createLogger('silent');

describe('orderly shutdown', () => {
  it('closes the newest resource first and goes on past one that fails', async () => {
    const closed: string[] = [];
    const shutdown = new Shutdown(logger);
    shutdown.add('database', async () => void closed.push('database'));
    shutdown.add('legacy', async () => {
      closed.push('legacy');
      throw new Error('already gone');
    });
    shutdown.add('http', async () => void closed.push('http'));
    await shutdown.run('test');
    expect(closed).toEqual(['http', 'legacy', 'database']);
  });

  it('lets the start-up step in progress finish, then closes what it opened', async () => {
    const closed: string[] = [];
    const shutdown = new Shutdown(logger);
    let finishStep!: () => void;
    const startup = shutdown.trackStartup(
      (async () => {
        shutdown.add('database', async () => void closed.push('database'));
        await new Promise<void>((r) => (finishStep = r)); // e.g. initdb running
        shutdown.add(
          'embedded postgres handle',
          async () => void closed.push('embedded postgres handle'),
        );
        if (shutdown.requested) return;
        shutdown.add('http', async () => void closed.push('http'));
      })(),
    );
    const done = shutdown.run('SIGTERM during start-up');
    // the shutdown has begun, and waits for the start-up step in progress before closing anything
    await expect.poll(() => shutdown.requested).toBe(true);
    expect(closed).toEqual([]);
    finishStep();
    await startup;
    await done;
    expect(closed).toEqual(['embedded postgres handle', 'database']);
  });
});

describe('signals', () => {
  const added: Array<[NodeJS.Signals, (...args: unknown[]) => void]> = [];
  afterEach(() => {
    for (const [signal, listener] of added.splice(0)) process.removeListener(signal, listener);
  });

  function listen(shutdown: Shutdown, exit: (code: number) => never) {
    const before = new Set(process.listeners('SIGTERM'));
    shutdown.exitOnSignals(['SIGTERM'], exit);
    for (const listener of process.listeners('SIGTERM')) {
      if (!before.has(listener)) added.push(['SIGTERM', listener as (...args: unknown[]) => void]);
    }
  }

  it('exits 0 after the shutdown, treating a relayed duplicate of the signal as the same request', async () => {
    const codes: number[] = [];
    let release: (() => void) | undefined;
    const shutdown = new Shutdown(logger);
    shutdown.add('slow resource', () => new Promise<void>((r) => (release = r)));
    listen(shutdown, ((code: number) => void codes.push(code)) as (code: number) => never);

    process.emit('SIGTERM', 'SIGTERM');
    process.emit('SIGTERM', 'SIGTERM');
    // the shutdown is under way (its slow resource is closing): no exit while it is
    await expect.poll(() => release !== undefined).toBe(true);
    expect(codes).toEqual([]);
    release!();
    await expect.poll(() => codes.length).toBeGreaterThan(0);
    expect(codes).toEqual([0]);
  });
});
