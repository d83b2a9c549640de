import { pino, type DestinationStream, type Logger } from 'pino';
import pretty from 'pino-pretty';

/** auto = pretty lines when stdout is a terminal (a developer watching), JSON lines otherwise (a log collector reading) */
export type LogFormat = 'auto' | 'json' | 'pretty';

/** Whether a logger writing to stdout prints pretty lines. */
export const printsPretty = (format: LogFormat, stdoutIsTerminal: boolean): boolean =>
  format === 'pretty' || (format === 'auto' && stdoutIsTerminal);

// Structured logs. Credentials never reach a log: the redaction paths cover every place a key
// or a connection secret could appear. `destination` defaults to stdout (tests capture lines);
// on stdout the format follows `format` (LOG_FORMAT). Pretty printing runs in this thread,
// synchronously (no worker thread, nothing lost at exit): it is for a terminal, not for volume.
export function createLogger(
  level: string = process.env.LOG_LEVEL ?? 'info',
  destination?: DestinationStream,
  format: LogFormat = 'auto',
): Logger {
  const stream =
    destination ??
    (printsPretty(format, process.stdout.isTTY === true)
      ? prettyLines(process.stdout.isTTY === true)
      : undefined);
  return pino(
    {
      level,
      redact: {
        paths: [
          'req.headers.authorization',
          'req.headers["x-api-key"]',
          'headers.authorization',
          'headers["x-api-key"]',
          '*.password',
          '*.apiKey',
          '*.key',
        ],
        censor: '[redacted]',
      },
    },
    stream,
  );
}

/**
 * The terminal's format: one line per entry (a request, a job), its fields after the message, so a
 * terminal shows a line per event instead of a block per field.
 */
export function prettyLines(
  colorize: boolean,
  destination?: NodeJS.WritableStream,
): DestinationStream {
  return pretty({
    sync: true,
    colorize,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname',
    singleLine: true,
    destination,
  });
}

export type { Logger };
