import { pino, type DestinationStream, type Logger } from 'pino';

// Structured logs. Credentials never reach a log: the redaction paths cover every place a key
// or a connection secret could appear. `destination` defaults to stdout (tests capture lines).
export function createLogger(level: string = process.env.LOG_LEVEL ?? 'info', destination?: DestinationStream): Logger {
  return pino({
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
  }, destination);
}

export type { Logger };
