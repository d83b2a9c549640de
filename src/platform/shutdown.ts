// Orderly shutdown: resources register a closer as they open, and on SIGINT/SIGTERM (or a fatal
// error) they close in reverse order: the HTTP server stops accepting first, the embedded
// PostgreSQL stops last, after every connection to it is gone. A signal that arrives during
// start-up lets the step in progress finish (an interrupted initdb would leave a broken DATA_DIR;
// start-up checks `requested` between steps), then closes what has opened. A repeated signal, or the
// overall deadline, forces the exit.
import type { Logger } from './logger.ts';

const REPEAT_WINDOW_MS = 2_000;

interface Closer {
  name: string;
  close(): Promise<void>;
}

export class Shutdown {
  private readonly closers: Closer[] = [];
  private running?: Promise<void>;
  private startup: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly logger: Logger,
    /** after this long the process exits even if a closer hangs */
    private readonly deadlineMs = 25_000,
  ) {}

  get requested(): boolean {
    return this.running !== undefined;
  }

  /** Registers a resource; it is closed before every resource registered earlier. */
  add(name: string, close: () => Promise<void>): void {
    this.closers.push({ name, close });
  }

  /** Start-up runs inside this, so a shutdown waits for the step in progress instead of racing it. */
  trackStartup<T>(startup: Promise<T>): Promise<T> {
    this.startup = startup.catch(() => undefined);
    return startup;
  }

  /** Closes everything registered, newest first, each at most once; a failing closer does not stop the rest. */
  run(reason: string): Promise<void> {
    this.running ??= (async () => {
      this.logger.info({ reason }, 'shutting down');
      await this.startup;
      await this.closeAll();
      this.logger.info('shutdown complete');
    })();
    return this.running;
  }

  private async closeAll(): Promise<void> {
    for (let closer = this.closers.pop(); closer; closer = this.closers.pop()) {
      try {
        await closer.close();
        this.logger.debug({ resource: closer.name }, 'closed');
      } catch (error) {
        this.logger.error({ err: error, resource: closer.name }, 'failed to close cleanly');
      }
    }
  }

  /**
   * Exit the process after an orderly shutdown on these signals. One Ctrl-C can arrive twice (the
   * terminal signals the whole process group, and tsx relays it to its child as well), so a repeat
   * within REPEAT_WINDOW_MS is the same request; a later one forces the exit.
   */
  exitOnSignals(signals: NodeJS.Signals[], exit: (code: number) => never = process.exit): void {
    let firstAt: number | undefined;
    for (const signal of signals) {
      process.on(signal, () => {
        if (firstAt === undefined) {
          firstAt = Date.now();
          this.exitAfter(signal, 0, exit);
        } else if (Date.now() - firstAt > REPEAT_WINDOW_MS) {
          this.logger.warn({ signal }, 'signal repeated: exiting without waiting for shutdown');
          exit(1);
        }
      });
    }
  }

  /** Runs the shutdown, then exits with `code` (or 1 when the deadline passes first). */
  exitAfter(reason: string, code: number, exit: (code: number) => never = process.exit): void {
    const timer = setTimeout(() => {
      this.logger.error(
        { deadlineMs: this.deadlineMs },
        'shutdown did not finish in time; exiting',
      );
      exit(1);
    }, this.deadlineMs);
    timer.unref();
    void this.run(reason).then(() => exit(code));
  }
}
