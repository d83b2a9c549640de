// A small seeded PRNG (sfc32, seeded through splitmix32) and the draws the generator needs.
// Each store gets its own generator from (run seed, store id), so a store's data does not depend on
// chunk sizes or on how many stores come before it: same seed + same id = same store.

function splitmix32(state: number): () => number {
  return () => {
    state = (state + 0x9e3779b9) | 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  };
}

/** 32-bit FNV-1a of a string: turns a textual --seed into a number. */
export function hashSeed(seed: string | number): number {
  const text = String(seed);
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export class Random {
  private a: number;
  private b: number;
  private c: number;
  private d: number;
  private spareNormal: number | null = null;

  constructor(...seeds: number[]) {
    let mixed = 0x2545f491;
    for (const s of seeds) mixed = splitmix32((mixed ^ (s >>> 0)) >>> 0)();
    const next = splitmix32(mixed);
    this.a = next();
    this.b = next();
    this.c = next();
    this.d = next();
    for (let i = 0; i < 12; i++) this.uint32();
  }

  uint32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** uniform in [0, 1) */
  next(): number {
    return this.uint32() / 4294967296;
  }

  uniform(min: number, max: number): number {
    return min + (max - min) * this.next();
  }

  /** integer in [min, max], both included */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  /** standard normal (Box-Muller, the second value kept for the next call) */
  normal(): number {
    if (this.spareNormal !== null) {
      const spare = this.spareNormal;
      this.spareNormal = null;
      return spare;
    }
    let u = 0;
    while (u === 0) u = this.next();
    const v = this.next();
    const r = Math.sqrt(-2 * Math.log(u));
    this.spareNormal = r * Math.sin(2 * Math.PI * v);
    return r * Math.cos(2 * Math.PI * v);
  }

  /** log-normal with the given median and sigma of the underlying normal: heavy right tail */
  logNormal(median: number, sigma: number): number {
    return median * Math.exp(sigma * this.normal());
  }

  /** log-uniform in [min, max]: as many prices between 10 and 20 as between 100 and 200 */
  logUniform(min: number, max: number): number {
    return min * Math.exp(Math.log(max / min) * this.next());
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new RangeError('pick from an empty list');
    return items[Math.floor(this.next() * items.length)]!;
  }

  /** 8 hex characters */
  hex8(): string {
    return this.uint32().toString(16).padStart(8, '0');
  }
}

/** Draws items in proportion to their weights (binary search over the cumulative weights). */
export class WeightedPicker<T> {
  private readonly cumulative: Float64Array;
  private readonly total: number;

  constructor(
    readonly items: readonly T[],
    weight: (item: T) => number,
  ) {
    if (items.length === 0) throw new RangeError('no items to pick from');
    this.cumulative = new Float64Array(items.length);
    let sum = 0;
    items.forEach((item, i) => {
      const w = weight(item);
      if (!(w >= 0)) throw new RangeError(`negative or missing weight at ${i}`);
      sum += w;
      this.cumulative[i] = sum;
    });
    if (sum <= 0) throw new RangeError('weights add up to 0');
    this.total = sum;
  }

  /** share of the item at index i, 0..1 */
  share(i: number): number {
    return (this.cumulative[i]! - (i > 0 ? this.cumulative[i - 1]! : 0)) / this.total;
  }

  pick(rng: Random): T {
    const target = rng.next() * this.total;
    let lo = 0;
    let hi = this.cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.cumulative[mid]! > target) hi = mid;
      else lo = mid + 1;
    }
    return this.items[lo]!;
  }
}
