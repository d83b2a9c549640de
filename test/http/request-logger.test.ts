// Each request's logger is made only when the request writes a line, and writes what Fastify's own would.
import { Writable } from 'node:stream';
import Fastify from 'fastify';
import pino from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { lazyRequestLogger } from '../../src/http/request-logger.ts';

function capturedLogger(level: string) {
  const lines: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  return { logger: pino({ level }, sink), lines };
}

async function serverWith(level: string) {
  const { logger, lines } = capturedLogger(level);
  const child = vi.spyOn(logger, 'child');
  const app = Fastify({
    loggerInstance: logger,
    childLoggerFactory: lazyRequestLogger,
    disableRequestLogging: true,
  });
  app.get('/quiet', async (request) => {
    request.log.info('below the level');
    return { ok: true, level: request.log.level };
  });
  app.get('/loud', async (request) => {
    request.log.warn({ detail: 1 }, 'worth a line');
    return { ok: true };
  });
  app.get('/own-level', { logLevel: 'debug' }, async (request) => {
    request.log.debug('a route of its own level');
    return { ok: true };
  });
  // Fastify makes a child of its own while it starts; what counts here is each request's
  await app.ready();
  child.mockClear();
  return { app, lines, child };
}

describe('the request logger', () => {
  it('makes no child for a request that writes nothing at an enabled level', async () => {
    const { app, lines, child } = await serverWith('warn');
    const res = await app.inject('/quiet');
    expect(res.json()).toEqual({ ok: true, level: 'warn' });
    expect(child).not.toHaveBeenCalled();
    expect(lines).toEqual([]);
    await app.close();
  });

  it('writes a line at an enabled level with the request id, as a child made at once would', async () => {
    const { app, lines, child } = await serverWith('warn');
    const res = await app.inject({ url: '/loud' });
    expect(res.statusCode).toBe(200);
    expect(child).toHaveBeenCalledTimes(1);
    expect(lines).toEqual([
      expect.objectContaining({
        level: 40,
        reqId: expect.any(String),
        detail: 1,
        msg: 'worth a line',
      }),
    ]);
    await app.close();
  });

  it('gives a route with its own log level its child at once', async () => {
    const { app, lines } = await serverWith('warn');
    await app.inject('/own-level');
    expect(lines).toEqual([
      expect.objectContaining({ level: 20, msg: 'a route of its own level' }),
    ]);
    await app.close();
  });
});
