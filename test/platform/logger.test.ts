// Log format: pretty lines for a developer at a terminal, JSON lines for everything else.
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger, printsPretty } from '../../src/platform/logger.ts';

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
    createLogger('info', sink, 'pretty').info({ headers: { authorization: 'Bearer sk_live_secret' } }, 'hello');
    const entry = JSON.parse(lines[0]!) as { msg: string; headers: { authorization: string } };
    expect(entry.msg).toBe('hello');
    expect(entry.headers.authorization).toBe('[redacted]');
  });
});
