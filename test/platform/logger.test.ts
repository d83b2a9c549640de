// Log format: pretty lines for a developer at a terminal, JSON lines for everything else.
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { queueLogLines } from '../../src/platform/jobs/job-worker.ts';
import { createLogger, prettyLines, printsPretty } from '../../src/platform/logger.ts';

describe('log format', () => {
  it('is pretty on a terminal and JSON on a pipe unless LOG_FORMAT says otherwise', () => {
    expect(printsPretty('auto', true)).toBe(true);
    expect(printsPretty('auto', false)).toBe(false);
    expect(printsPretty('json', true)).toBe(false);
    expect(printsPretty('pretty', false)).toBe(true);
  });

  it('writes JSON lines with keys redacted to a given destination', () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    createLogger('info', sink, 'pretty').info(
      { headers: { authorization: 'Bearer sk_live_secret' } },
      'hello',
    );
    const entry = JSON.parse(lines[0]!) as { msg: string; headers: { authorization: string } };
    expect(entry.msg).toBe('hello');
    expect(entry.headers.authorization).toBe('[redacted]');
  });
});

describe('a terminal is not drowned', () => {
  const capture = () => {
    let text = '';
    const sink = new Writable({
      write(chunk, _encoding, done) {
        text += String(chunk);
        done();
      },
    });
    return { sink, text: () => text };
  };

  it('prints one line per request in the pretty format', () => {
    const out = capture();
    const logger = createLogger('info', prettyLines(false, out.sink));
    // what the access log writes when a request completes
    logger
      .child({ component: 'http', reqId: 'r-1' })
      .info(
        { req: { method: 'GET', url: '/v1/stores?q=river' }, statusCode: 200, responseTimeMs: 12 },
        'request completed',
      );
    const lines = out.text().trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/INFO.*request completed.*\/v1\/stores\?q=river.*200/);
  });

  it("writes a finished job as its queue's one-line message at info, with the job's record only at debug", () => {
    const job = {
      id: '3',
      task_identifier: 'signal-probe',
      payload: { probeId: 1 },
      attempts: 1,
      max_attempts: 3,
      locked_by: 'worker-1',
    };
    const done = 'Completed task 3 (signal-probe, 1234.56ms, attempt 1 of 3) with success';
    expect(queueLogLines('info', done, { job })).toEqual([
      { level: 'info', fields: {} },
      { level: 'debug', fields: { queue: { job } } },
    ]);
    const failed = 'Failed task 3 (signal-probe, 10ms, attempt 1 of 3) with error';
    expect(queueLogLines('error', failed, { job })).toEqual([
      { level: 'error', fields: { queue: { job } } },
    ]);
    expect(queueLogLines('info', 'Worker connected and looking for jobs...', {})).toEqual([
      { level: 'debug', fields: { queue: {} } },
    ]);

    const out = capture();
    const logger = createLogger('info', prettyLines(false, out.sink));
    for (const line of queueLogLines('info', done, { job })) logger[line.level](line.fields, done);
    expect(out.text().trimEnd().split('\n')).toHaveLength(1);
    expect(out.text()).not.toContain('locked_by');
  });
});
