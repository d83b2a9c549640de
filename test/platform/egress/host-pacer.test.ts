// Per-host politeness: request starts to one host are spaced by the interval, other hosts are not
// held up by it. Uses vitest's fake clock, so the spacing is exact and nothing sleeps for real.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HostPacer } from '../../../src/platform/egress/host-pacer.ts';

describe('HostPacer', () => {
  beforeEach(() => vi.useFakeTimers({ now: 1_000_000 }));
  afterEach(() => vi.useRealTimers());

  /** when each of the waits resolves, in fake milliseconds since the start */
  async function startTimes(pacer: HostPacer, hosts: string[]): Promise<Record<string, number[]>> {
    const start = Date.now();
    const times: Record<string, number[]> = {};
    const waits = hosts.map((host) =>
      pacer.wait(host).then(() => (times[host] ??= []).push(Date.now() - start)),
    );
    await vi.runAllTimersAsync();
    await Promise.all(waits);
    return times;
  }

  it('spaces the starts to one host by the interval, in arrival order', async () => {
    const times = await startTimes(new HostPacer(500), [
      'shop.example',
      'shop.example',
      'shop.example',
      'shop.example',
    ]);
    expect(times['shop.example']).toEqual([0, 500, 1_000, 1_500]);
  });

  it('paces each host on its own: a busy host does not delay another', async () => {
    const times = await startTimes(new HostPacer(500), [
      'a.example',
      'a.example',
      'b.example',
      'a.example',
      'b.example',
    ]);
    expect(times).toEqual({ 'a.example': [0, 500, 1_000], 'b.example': [0, 500] });
  });

  it('lets a request through at once when the host was last asked longer ago than the interval', async () => {
    const pacer = new HostPacer(500);
    await startTimes(pacer, ['shop.example']);
    vi.advanceTimersByTime(2_000);
    expect(await startTimes(pacer, ['shop.example'])).toEqual({ 'shop.example': [0] });
  });

  it('does not wait at all with an interval of 0', async () => {
    expect(await startTimes(new HostPacer(0), ['x.example', 'x.example', 'x.example'])).toEqual({
      'x.example': [0, 0, 0],
    });
  });
});
