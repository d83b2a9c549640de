// Dropshipper classifier: does the store resell supplier stock it never holds? A classification
// from storefront evidence, presented as such, never as a fact about the business.

export interface DropshipperInputs {
  /** installed apps marked dropshipping in data/apps.json (supplier sync, print on demand) */
  dropshippingAppCount: number;
  /** dropshipping phrases found on the storefront (data/vocabulary.json dropshipPhrases:
   *  long shipping times such as "Ships in 7-15 business days", supplier and urgency wording) */
  dropshipTextSignals: number;
  productCount: number;
  /** median product price in USD; null when nothing is priced */
  medianPriceUsd: number | null;
}

export interface DropshipperClass {
  isDropshipper: boolean;
  /** 0..1, rounded to 3 decimals */
  score: number;
}

export const DROPSHIPPER_THRESHOLD = 0.5;
/** a catalog at least this wide with a median price below WIDE_CHEAP_MAX_PRICE_USD */
export const WIDE_CATALOG_PRODUCTS = 100;
export const WIDE_CHEAP_MAX_PRICE_USD = 30;
export const CHEAP_MEDIAN_PRICE_USD = 20;

export const DROPSHIPPER_METHOD =
  'Dropshipper classifier. score = 1 / (1 + e^-z) with z = -3.2 + 1.9 x min(dropshipping apps, 3) ' +
  '+ 0.8 x min(dropshipping phrases on the storefront, e.g. long shipping times, 5) + 1.0 if the catalog ' +
  `has >= ${WIDE_CATALOG_PRODUCTS} products with a median price under ${WIDE_CHEAP_MAX_PRICE_USD} USD ` +
  `+ 0.5 if the median price is under ${CHEAP_MEDIAN_PRICE_USD} USD. isDropshipper = score >= ` +
  `${DROPSHIPPER_THRESHOLD}. One dropshipping app alone is not enough (score 0.21); one app with two ` +
  'text signals, or two apps, is. A classification, not a legal fact.';

const count = (n: number) => (Number.isFinite(n) && n > 0 ? n : 0);

export function classifyDropshipper(inputs: DropshipperInputs): DropshipperClass {
  const price = inputs.medianPriceUsd;
  const priced = typeof price === 'number' && Number.isFinite(price) && price > 0;
  const wideCheap =
    priced &&
    count(inputs.productCount) >= WIDE_CATALOG_PRODUCTS &&
    price < WIDE_CHEAP_MAX_PRICE_USD;
  const z =
    -3.2 +
    1.9 * Math.min(count(inputs.dropshippingAppCount), 3) +
    0.8 * Math.min(count(inputs.dropshipTextSignals), 5) +
    (wideCheap ? 1 : 0) +
    (priced && price < CHEAP_MEDIAN_PRICE_USD ? 0.5 : 0);
  const score = Math.round(1000 / (1 + Math.exp(-z))) / 1000;
  return { isDropshipper: score >= DROPSHIPPER_THRESHOLD, score };
}
