// The counters of a single instance (no REDIS_URL): fixed windows, as the Redis counters keep them.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { InProcessCounters } from '../../src/access/in-process-counters.ts';

describe('in-process counters', () => {
  let counters: InProcessCounters;
  beforeEach(() => {
    vi.useFakeTimers({ now: new Date('2026-11-26T12:00:00Z') });
    counters = new InProcessCounters();
  });
  afterEach(async () => {
    await counters.close();
    vi.useRealTimers();
  });

  it('counts within a window that starts with its first units and renews after it ends', () => {
    expect(counters.add('minute:key:1', 1, 60)).toEqual({ consumed: 1, msBeforeReset: 60_000 });
    vi.advanceTimersByTime(20_000);
    expect(counters.add('minute:key:1', 2, 60)).toEqual({ consumed: 3, msBeforeReset: 40_000 });
    vi.advanceTimersByTime(40_000);
    expect(counters.read('minute:key:1')).toBeNull();
    expect(counters.add('minute:key:1', 1, 60)).toEqual({ consumed: 1, msBeforeReset: 60_000 });
  });

  it('gives units back without moving the window, and keeps each key apart', () => {
    counters.add('day:2026-11-26:key:1', 5, 3_600);
    counters.add('day:2026-11-26:key:2', 1, 3_600);
    vi.advanceTimersByTime(1_000);
    counters.subtract('day:2026-11-26:key:1', 2, 3_600);
    expect(counters.read('day:2026-11-26:key:1')).toEqual({
      consumed: 3,
      msBeforeReset: 3_599_000,
    });
    expect(counters.read('day:2026-11-26:key:2')).toEqual({
      consumed: 1,
      msBeforeReset: 3_599_000,
    });
    expect(counters.read('day:2026-11-26:key:3')).toBeNull();
  });

  it('answers at once, without a promise', () => {
    expect(counters.add('minute:key:1', 1, 60)).not.toBeInstanceOf(Promise);
    expect(counters.read('minute:key:1')).not.toBeInstanceOf(Promise);
  });

  it('drops ended counters from memory', () => {
    for (let i = 0; i < 100; i++) counters.add(`minute:client:10.0.0.${i}`, 1, 60);
    counters.add('day:2026-11-26:key:1', 1, 86_400);
    const held = () => (counters as unknown as { counters: Map<string, unknown> }).counters.size;
    expect(held()).toBe(101);
    vi.advanceTimersByTime(120_000);
    expect(held()).toBe(1);
  });
});
