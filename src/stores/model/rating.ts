// The service's own 0..100 rating of how well a store is run, and its letter grade. Traffic is one
// weighted input among several: a store nobody visits yet can still be well run and rate well.

export interface RatingInputs {
  monthlyVisits: number;
  productCount: number;
  appCount: number;
  /** runs a product-reviews app (category "Reviews" in data/apps.json) */
  hasReviewsApp: boolean;
  /** runs a support or live-chat app (categories "Customer support", "Live chat") */
  hasSupportApp: boolean;
  /** publishes a contact email */
  hasContactEmail: boolean;
  /** number of linked social profiles (instagram, facebook, tiktok, ...) */
  socialProfiles: number;
  socialFollowers: number;
  /** the dropshipper classifier's score 0..1 */
  dropshipperScore: number;
}

export type Grade = 'A' | 'B' | 'C' | 'D' | 'F';

/** lowest rating of each grade, best first; below the last one: F */
export const GRADE_THRESHOLDS: ReadonlyArray<{ grade: Exclude<Grade, 'F'>; min: number }> = [
  { grade: 'A', min: 85 },
  { grade: 'B', min: 70 },
  { grade: 'C', min: 55 },
  { grade: 'D', min: 40 },
];

/** points of each component at its best; they add up to 100 */
export const RATING_WEIGHTS = {
  traffic: 20,
  catalog: 15,
  reviews: 15,
  audience: 15,
  support: 10,
  contact: 10,
  socialPresence: 10,
  appStack: 5,
} as const;
export const DROPSHIPPER_PENALTY = 10;

export const RATING_METHOD =
  'Service rating 0..100, the sum of weighted components, rounded and kept within 0..100: ' +
  `traffic ${RATING_WEIGHTS.traffic} x min(1, log10(1 + visits) / 5) (full at 100k visits/month); ` +
  `catalog ${RATING_WEIGHTS.catalog} x min(1, log10(1 + products) / log10(101)) (full at 100 products); ` +
  `reviews app ${RATING_WEIGHTS.reviews}; audience ${RATING_WEIGHTS.audience} x min(1, log10(1 + ` +
  `followers) / 4) (full at 10k followers); support or chat app ${RATING_WEIGHTS.support}; ` +
  `contact email ${RATING_WEIGHTS.contact}; social presence ${RATING_WEIGHTS.socialPresence} x ` +
  `min(1, profiles / 3); app stack ${RATING_WEIGHTS.appStack} x min(1, apps / 6); minus ` +
  `${DROPSHIPPER_PENALTY} x dropshipper score. Traffic is one input, not a hard fail: a store with ` +
  'no traffic can still reach 80. Grades: ' +
  GRADE_THRESHOLDS.map((t) => `${t.grade} >= ${t.min}`).join(', ') +
  ', F below 40.';

export function gradeFor(rating: number): Grade {
  for (const { grade, min } of GRADE_THRESHOLDS) if (rating >= min) return grade;
  return 'F';
}

/** log10(1 + 100): the catalog component is full at 100 products */
const LOG10_101 = Math.log10(101);
const positive = (n: number) => (Number.isFinite(n) && n > 0 ? n : 0);
const capped = (n: number) => Math.min(1, n);

export type RatingComponent = keyof typeof RATING_WEIGHTS | 'dropshipperPenalty';

export interface Rating {
  rating: number;
  grade: Grade;
  /** points each component contributed (penalty negative), before rounding */
  components: Record<RatingComponent, number>;
}

/** Inputs that do not change from one day to the next in a store's history. */
export type SteadyRatingInputs = Omit<RatingInputs, 'monthlyVisits' | 'productCount'>;

function trafficPoints(monthlyVisits: number): number {
  return RATING_WEIGHTS.traffic * capped(Math.log10(1 + positive(monthlyVisits)) / 5);
}

function catalogPoints(productCount: number): number {
  return RATING_WEIGHTS.catalog * capped(Math.log10(1 + positive(productCount)) / LOG10_101);
}

function steadyComponents(
  inputs: SteadyRatingInputs,
): Omit<Rating['components'], 'traffic' | 'catalog'> {
  const w = RATING_WEIGHTS;
  return {
    reviews: inputs.hasReviewsApp ? w.reviews : 0,
    audience: w.audience * capped(Math.log10(1 + positive(inputs.socialFollowers)) / 4),
    support: inputs.hasSupportApp ? w.support : 0,
    contact: inputs.hasContactEmail ? w.contact : 0,
    socialPresence: w.socialPresence * capped(positive(inputs.socialProfiles) / 3),
    appStack: w.appStack * capped(positive(inputs.appCount) / 6),
    dropshipperPenalty: -DROPSHIPPER_PENALTY * Math.min(1, positive(inputs.dropshipperScore)),
  };
}

function steadyPoints(inputs: SteadyRatingInputs): number {
  const c = steadyComponents(inputs);
  return (
    c.reviews +
    c.audience +
    c.support +
    c.contact +
    c.socialPresence +
    c.appStack +
    c.dropshipperPenalty
  );
}

/** the one place points become a rating: both entry points below add in the same order */
function toRating(steady: number, traffic: number, catalog: number): number {
  return Math.min(100, Math.max(0, Math.round(steady + traffic + catalog)));
}

export function rateStore(inputs: RatingInputs): Rating {
  const traffic = trafficPoints(inputs.monthlyVisits);
  const catalog = catalogPoints(inputs.productCount);
  const rating = toRating(steadyPoints(inputs), traffic, catalog);
  return {
    rating,
    grade: gradeFor(rating),
    components: { traffic, catalog, ...steadyComponents(inputs) },
  };
}

/**
 * The rating of each day of a history where only traffic and catalog size change: the same as
 * rateStore for every day, without recomputing the steady components each time.
 */
export function rateHistory(
  steady: SteadyRatingInputs,
  monthlyVisits: ArrayLike<number>,
  productCounts: ArrayLike<number>,
): Uint8Array {
  const base = steadyPoints(steady);
  const ratings = new Uint8Array(monthlyVisits.length);
  // catalog size changes on few days: its points are recomputed only then
  let count = Number.NaN;
  let catalog = 0;
  for (let i = 0; i < monthlyVisits.length; i++) {
    if (productCounts[i] !== count) {
      count = productCounts[i]!;
      catalog = catalogPoints(count);
    }
    ratings[i] = toRating(base, trafficPoints(monthlyVisits[i]!), catalog);
  }
  return ratings;
}
