import { describe, expect, it } from 'vitest';
import { hashSeed, Random, WeightedPicker } from '../../src/seed/random.ts';

describe('Random', () => {
  it('repeats the same sequence for the same seeds and differs otherwise', () => {
    const draw = (...seeds: number[]) => {
      const rng = new Random(...seeds);
      return Array.from({ length: 5 }, () => rng.uint32());
    };
    expect(draw(1, 2)).toEqual(draw(1, 2));
    expect(draw(1, 2)).not.toEqual(draw(1, 3));
    expect(draw(1, 2)).not.toEqual(draw(2, 1));
  });

  it('hashes textual seeds to 32-bit numbers', () => {
    expect(hashSeed('demo')).toBe(hashSeed('demo'));
    expect(hashSeed('demo')).not.toBe(hashSeed('demo2'));
    expect(hashSeed(7)).toBe(hashSeed('7'));
    expect(hashSeed('x')).toBeLessThan(2 ** 32);
  });

  it('draws within the asked ranges with the asked centre', () => {
    const rng = new Random(9);
    const n = 20_000;
    let sum = 0;
    const logNormals: number[] = [];
    const ints = new Set<number>();
    let outside = 0;
    for (let i = 0; i < n; i++) {
      const u = rng.next();
      if (u < 0 || u >= 1) outside++;
      ints.add(rng.int(3, 5));
      sum += rng.normal();
      logNormals.push(rng.logNormal(300, 2));
    }
    expect(outside).toBe(0);
    expect([...ints].sort()).toEqual([3, 4, 5]);
    expect(Math.abs(sum / n)).toBeLessThan(0.05);
    logNormals.sort((a, b) => a - b);
    expect(logNormals[n / 2]).toBeGreaterThan(250);
    expect(logNormals[n / 2]).toBeLessThan(360);
  });
});

describe('WeightedPicker', () => {
  it('picks items in proportion to their weights', () => {
    const picker = new WeightedPicker(['a', 'b', 'c'], (x) => ({ a: 6, b: 3, c: 1 })[x]!);
    const rng = new Random(5);
    const counts: Record<string, number> = { a: 0, b: 0, c: 0 };
    for (let i = 0; i < 30_000; i++) counts[picker.pick(rng)]!++;
    expect(counts.a! / 30_000).toBeCloseTo(0.6, 1);
    expect(counts.b! / 30_000).toBeCloseTo(0.3, 1);
    expect(counts.c! / 30_000).toBeCloseTo(0.1, 1);
    expect(picker.share(2)).toBeCloseTo(0.1, 10);
  });

  it('refuses unusable weights', () => {
    expect(() => new WeightedPicker([], () => 1)).toThrow();
    expect(() => new WeightedPicker(['a'], () => 0)).toThrow();
    expect(() => new WeightedPicker(['a'], () => -1)).toThrow();
  });
});
