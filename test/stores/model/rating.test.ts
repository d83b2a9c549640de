import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  gradeFor,
  rateHistory,
  rateStore,
  RATING_WEIGHTS,
  type RatingInputs,
} from '../../../src/stores/model/rating.ts';

const inputs = fc.record<RatingInputs>({
  monthlyVisits: fc.integer({ min: 0, max: 100_000_000 }),
  productCount: fc.integer({ min: 0, max: 100_000 }),
  appCount: fc.integer({ min: 0, max: 80 }),
  hasReviewsApp: fc.boolean(),
  hasSupportApp: fc.boolean(),
  hasContactEmail: fc.boolean(),
  socialProfiles: fc.integer({ min: 0, max: 6 }),
  socialFollowers: fc.integer({ min: 0, max: 50_000_000 }),
  dropshipperScore: fc.double({ min: 0, max: 1, noNaN: true }),
});

const strongStore: RatingInputs = {
  monthlyVisits: 0,
  productCount: 500,
  appCount: 8,
  hasReviewsApp: true,
  hasSupportApp: true,
  hasContactEmail: true,
  socialProfiles: 4,
  socialFollowers: 200_000,
  dropshipperScore: 0,
};

describe('rateStore', () => {
  it('weights add up to 100', () => {
    expect(Object.values(RATING_WEIGHTS).reduce((a, b) => a + b, 0)).toBe(100);
  });

  it('stays within 0..100 with the grade of its rating', () => {
    fc.assert(
      fc.property(inputs, (i) => {
        const r = rateStore(i);
        expect(Number.isInteger(r.rating)).toBe(true);
        expect(r.rating).toBeGreaterThanOrEqual(0);
        expect(r.rating).toBeLessThanOrEqual(100);
        expect(r.grade).toBe(gradeFor(r.rating));
      }),
    );
  });

  it('does not fail a store for having no traffic', () => {
    const r = rateStore(strongStore);
    expect(r.rating).toBe(80);
    expect(r.grade).toBe('B');
    expect(r.components.traffic).toBe(0);
  });

  it('never drops when traffic, catalog or audience grow', () => {
    fc.assert(
      fc.property(
        inputs,
        fc.constantFrom(
          'monthlyVisits',
          'productCount',
          'socialFollowers',
          'appCount',
          'socialProfiles',
        ),
        (i, key) => {
          const more = { ...i, [key]: (i[key] as number) * 3 + 1 };
          expect(rateStore(more).rating).toBeGreaterThanOrEqual(rateStore(i).rating);
        },
      ),
    );
  });

  it('rates a well-run, visited store A and an empty one F', () => {
    expect(rateStore({ ...strongStore, monthlyVisits: 2_000_000 }).rating).toBe(100);
    const empty = rateStore({
      ...strongStore,
      productCount: 0,
      appCount: 0,
      hasReviewsApp: false,
      hasSupportApp: false,
      hasContactEmail: false,
      socialProfiles: 0,
      socialFollowers: 0,
      dropshipperScore: 1,
    });
    expect(empty.rating).toBe(0);
    expect(empty.grade).toBe('F');
  });
});

describe('rateHistory', () => {
  it('rates every day exactly as rateStore would', () => {
    fc.assert(
      fc.property(
        inputs,
        fc.array(
          fc.tuple(fc.integer({ min: 0, max: 5_000_000 }), fc.integer({ min: 0, max: 3000 })),
          { minLength: 1, maxLength: 30 },
        ),
        (steady, days) => {
          const visits = days.map(([v]) => v);
          const counts = days.map(([, c]) => c);
          const expected = days.map(
            ([v, c]) => rateStore({ ...steady, monthlyVisits: v, productCount: c }).rating,
          );
          expect([...rateHistory(steady, visits, counts)]).toEqual(expected);
        },
      ),
    );
  });
});

describe('gradeFor', () => {
  it('puts the boundaries in the upper grade', () => {
    expect([85, 84, 70, 69, 55, 54, 40, 39, 0, 100].map(gradeFor)).toEqual([
      'A',
      'B',
      'B',
      'C',
      'C',
      'D',
      'D',
      'F',
      'F',
      'A',
    ]);
  });
});
