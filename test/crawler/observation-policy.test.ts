// The re-observation policy's arithmetic (src/storefront/observation-policy.ts), as docs.md states it.
import { describe, expect, it } from 'vitest';
import {
  FAILURE_BACKOFF_MINUTES,
  jittered,
  MAX_INTERVAL_HOURS,
  MIN_INTERVAL_HOURS,
  nextChangeRate,
  observationIntervalHours,
  presenceAfterFailure,
  retryAt,
  VANISH_AFTER_FAILURES,
} from '../../src/storefront/observation-policy.ts';

const now = new Date('2026-11-25T12:00:00Z');
const hoursAfter = (at: Date) => (at.getTime() - now.getTime()) / 3_600_000;

describe('observation interval', () => {
  it('observes the popular daily, the middle every 3 days and the long tail weekly at a neutral change rate', () => {
    expect(observationIntervalHours(250_000, 0.5)).toBe(24);
    expect(observationIntervalHours(100_000, 0.5)).toBe(24);
    expect(observationIntervalHours(99_999, 0.5)).toBe(72);
    expect(observationIntervalHours(10_000, 0.5)).toBe(72);
    expect(observationIntervalHours(500, 0.5)).toBe(168);
  });

  it('comes twice as often for a store that always changes, half as often for one that never does, within the bounds', () => {
    expect(observationIntervalHours(10_000, 1)).toBe(36);
    expect(observationIntervalHours(10_000, 0)).toBe(144);
    expect(observationIntervalHours(250_000, 1)).toBe(MIN_INTERVAL_HOURS);
    expect(observationIntervalHours(500, 0)).toBe(MAX_INTERVAL_HOURS);
  });

  it('moves the change rate towards what each observation found', () => {
    expect(nextChangeRate(0.5, true)).toBeCloseTo(0.65);
    expect(nextChangeRate(0.5, false)).toBeCloseTo(0.35);
    let rate = 0.5;
    for (let i = 0; i < 30; i++) rate = nextChangeRate(rate, false);
    expect(observationIntervalHours(10_000, rate)).toBeGreaterThan(140);
  });

  it('spreads next times within ±10% of the interval', () => {
    expect(hoursAfter(jittered(now, 24, () => 0))).toBeCloseTo(21.6);
    expect(hoursAfter(jittered(now, 24, () => 0.5))).toBeCloseTo(24);
    expect(hoursAfter(jittered(now, 24, () => 0.999999))).toBeCloseTo(26.4, 3);
  });
});

describe('failures', () => {
  it('backs off from 15 minutes, doubling, never past the interval, never before the Retry-After', () => {
    expect(hoursAfter(retryAt(now, 1, 24)) * 60).toBe(FAILURE_BACKOFF_MINUTES);
    expect(hoursAfter(retryAt(now, 3, 24)) * 60).toBe(FAILURE_BACKOFF_MINUTES * 4);
    expect(hoursAfter(retryAt(now, 12, 24))).toBe(24);
    expect(hoursAfter(retryAt(now, 1, 24, 3_600))).toBe(1);
    expect(hoursAfter(retryAt(now, 1, 24, 60)) * 60).toBe(FAILURE_BACKOFF_MINUTES);
  });

  it(`vanishes after ${VANISH_AFTER_FAILURES} failures saying the storefront is gone`, () => {
    expect(presenceAfterFailure(0)).toBe('failing');
    expect(presenceAfterFailure(VANISH_AFTER_FAILURES - 1)).toBe('failing');
    expect(presenceAfterFailure(VANISH_AFTER_FAILURES)).toBe('vanished');
  });
});
