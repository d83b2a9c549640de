// Each request's logger (Fastify's childLoggerFactory), made only when the request writes a line.
// Fastify gives every request a pino child carrying its request id, and pino serializes those
// bindings as it makes the child: a cost on every request, though at LOG_LEVEL=warn nearly none
// writes a line. This stands in for the child and makes it on the first line at an enabled level.
import type { FastifyBaseLogger } from 'fastify';
import type { Bindings, ChildLoggerOptions, Level, LevelWithSilentOrString, LogFn } from 'pino';

/** The logger Fastify was given (the HTTP layer's pino child). */
type ParentLogger = FastifyBaseLogger & { isLevelEnabled(level: LevelWithSilentOrString): boolean };

class LazyRequestLogger {
  private made: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: ParentLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  private get logger(): FastifyBaseLogger {
    this.made ??= this.parent.child(this.bindings, this.options);
    return this.made;
  }

  get level(): string {
    return this.made?.level ?? this.parent.level;
  }

  set level(level: string) {
    this.logger.level = level;
  }

  isLevelEnabled(level: LevelWithSilentOrString): boolean {
    return this.made
      ? (this.made as ParentLogger).isLevelEnabled(level)
      : this.parent.isLevelEnabled(level);
  }

  private write(level: Level, args: Parameters<LogFn>): void {
    if (this.isLevelEnabled(level)) (this.logger[level] as (...a: unknown[]) => void)(...args);
  }

  fatal(...args: Parameters<LogFn>): void {
    this.write('fatal', args);
  }
  error(...args: Parameters<LogFn>): void {
    this.write('error', args);
  }
  warn(...args: Parameters<LogFn>): void {
    this.write('warn', args);
  }
  info(...args: Parameters<LogFn>): void {
    this.write('info', args);
  }
  debug(...args: Parameters<LogFn>): void {
    this.write('debug', args);
  }
  trace(...args: Parameters<LogFn>): void {
    this.write('trace', args);
  }
  silent(): void {}

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.logger.child(bindings, options);
  }
}

/**
 * Fastify's childLoggerFactory: a request whose route sets its own log level or serializers gets its
 * child at once; any other, a stand-in that makes it on the first line written.
 */
export function lazyRequestLogger(
  logger: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildLoggerOptions,
): FastifyBaseLogger {
  if (options.level !== undefined || options.serializers !== undefined)
    return logger.child(bindings, options);
  return new LazyRequestLogger(
    logger as ParentLogger,
    bindings,
    options,
  ) as unknown as FastifyBaseLogger;
}
