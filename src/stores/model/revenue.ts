// Modeled monthly revenue band: visits x conversion band x average order value. Merchants never
// report sales to us; the band is a model and is labelled as one wherever it is shown.

export interface ConversionBand {
  lowPct: number;
  highPct: number;
}

/**
 * Typical ecommerce conversion rates (percent of visits that order) per vertical, from the usual
 * industry ranges: consumables and beauty convert best, furniture and cameras worst.
 * Keys are the vertical names of data/taxonomy.json.
 */
export const VERTICAL_CONVERSION: Readonly<Record<string, ConversionBand>> = {
  'Apparel & Accessories': { lowPct: 1.0, highPct: 2.4 },
  'Health & Beauty': { lowPct: 1.3, highPct: 3.0 },
  'Home & Garden': { lowPct: 0.8, highPct: 2.0 },
  'Food, Beverages & Tobacco': { lowPct: 1.8, highPct: 4.0 },
  'Sporting Goods': { lowPct: 0.8, highPct: 2.0 },
  Electronics: { lowPct: 0.6, highPct: 1.6 },
  'Arts & Entertainment': { lowPct: 1.0, highPct: 2.4 },
  'Toys & Games': { lowPct: 1.0, highPct: 2.4 },
  'Animals & Pet Supplies': { lowPct: 1.4, highPct: 3.0 },
  Furniture: { lowPct: 0.4, highPct: 1.2 },
  'Baby & Toddler': { lowPct: 1.0, highPct: 2.4 },
  'Luggage & Bags': { lowPct: 0.8, highPct: 2.0 },
  'Vehicles & Parts': { lowPct: 0.6, highPct: 1.6 },
  Hardware: { lowPct: 0.8, highPct: 2.0 },
  'Business & Industrial': { lowPct: 0.6, highPct: 1.8 },
  Media: { lowPct: 1.2, highPct: 3.0 },
  'Office Supplies': { lowPct: 1.0, highPct: 2.6 },
  'Cameras & Optics': { lowPct: 0.5, highPct: 1.4 },
  Software: { lowPct: 1.0, highPct: 3.0 },
  'Religious & Ceremonial': { lowPct: 1.0, highPct: 2.4 },
};
/** band used when the vertical is unknown */
export const DEFAULT_CONVERSION: ConversionBand = { lowPct: 0.8, highPct: 2.2 };
/** order value at which the vertical band applies unchanged */
export const REFERENCE_ORDER_VALUE_USD = 50;
export const PRICE_FACTOR_MIN = 0.6;
export const PRICE_FACTOR_MAX = 1.3;

export const REVENUE_METHOD =
  'Modeled monthly revenue band in USD: low = visits x conversionLow% x AOV, high = visits x ' +
  'conversionHigh% x AOV, rounded to whole dollars. Average order value (AOV) = median product ' +
  'price (USD) x items per order, where items per order = 1 + 0.9 x e^(-medianPrice / 35) (cheap ' +
  "items sell in multiples). The conversion band starts from the vertical's typical range " +
  `(${Object.entries(VERTICAL_CONVERSION)
    .map(([v, band]) => `${v} ${fmt(band)}`)
    .join('; ')}; ` +
  `unknown vertical ${fmt(DEFAULT_CONVERSION)}) and is ` +
  `scaled by the price level (${REFERENCE_ORDER_VALUE_USD} / AOV)^0.2, kept within ` +
  `${PRICE_FACTOR_MIN}..${PRICE_FACTOR_MAX}: expensive baskets convert less. A store without priced ` +
  'products has no AOV and a 0..0 band. A model, not merchant-reported sales.';

function fmt(band: ConversionBand): string {
  return `${band.lowPct}-${band.highPct}%`;
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/** Average order value in USD from the median product price; null without a positive price. */
export function averageOrderValue(medianPriceUsd: number | null | undefined): number | null {
  if (
    typeof medianPriceUsd !== 'number' ||
    !Number.isFinite(medianPriceUsd) ||
    medianPriceUsd <= 0
  ) {
    return null;
  }
  const itemsPerOrder = 1 + 0.9 * Math.exp(-medianPriceUsd / 35);
  return round2(medianPriceUsd * itemsPerOrder);
}

/** Conversion band for a vertical at a price level (AOV); without an AOV the vertical band as is. */
export function conversionBand(
  vertical: string | null | undefined,
  averageOrderValueUsd: number | null,
): ConversionBand {
  const base = (vertical && VERTICAL_CONVERSION[vertical]) || DEFAULT_CONVERSION;
  const factor =
    averageOrderValueUsd === null
      ? 1
      : Math.min(
          PRICE_FACTOR_MAX,
          Math.max(PRICE_FACTOR_MIN, (REFERENCE_ORDER_VALUE_USD / averageOrderValueUsd) ** 0.2),
        );
  return { lowPct: round2(base.lowPct * factor), highPct: round2(base.highPct * factor) };
}

/** The band for a number of visits once conversion and AOV are known (used for each history day). */
export function revenueBand(
  monthlyVisits: number,
  band: ConversionBand,
  averageOrderValueUsd: number | null,
): { low: number; high: number } {
  if (averageOrderValueUsd === null || !(monthlyVisits > 0)) return { low: 0, high: 0 };
  return {
    low: Math.round(((monthlyVisits * band.lowPct) / 100) * averageOrderValueUsd),
    high: Math.round(((monthlyVisits * band.highPct) / 100) * averageOrderValueUsd),
  };
}

export interface RevenueInputs {
  monthlyVisits: number;
  /** median price of the store's products in USD; null when nothing is priced */
  medianPriceUsd: number | null;
  /** vertical name from data/taxonomy.json */
  vertical: string | null;
}

export interface RevenueEstimate {
  low: number;
  high: number;
  conversionLowPct: number;
  conversionHighPct: number;
  averageOrderValueUsd: number | null;
}

export function estimateRevenue(inputs: RevenueInputs): RevenueEstimate {
  const aov = averageOrderValue(inputs.medianPriceUsd);
  const band = conversionBand(inputs.vertical, aov);
  const { low, high } = revenueBand(inputs.monthlyVisits, band, aov);
  return {
    low,
    high,
    conversionLowPct: band.lowPct,
    conversionHighPct: band.highPct,
    averageOrderValueUsd: aov,
  };
}
