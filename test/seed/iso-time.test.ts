import { describe, expect, it } from 'vitest';
import { isoTimestamp } from '../../src/seed/iso-time.ts';
import { Random } from '../../src/seed/random.ts';

describe('isoTimestamp', () => {
  it('formats exactly like Date#toISOString', () => {
    const rng = new Random(11);
    const samples = [
      0,
      999,
      86_399_999,
      Date.UTC(2024, 1, 29, 23, 59, 59, 5),
      Date.UTC(2026, 11, 31, 0, 0, 0, 0),
    ];
    for (let i = 0; i < 5000; i++) samples.push(Math.floor(rng.uniform(1.5e12, 1.9e12)));
    for (const ms of samples) expect(isoTimestamp(ms)).toBe(new Date(ms).toISOString());
  });
});
