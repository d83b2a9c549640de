// A store's products, with the product change records of the last 90 days (price changes, new and
// removed SKUs) and the days its catalog grew or shrank, for the history's product counts.
import { percentChange } from '../stores/model/growth.ts';
import { HandleSet, productTitle } from './names.ts';
import type { Random } from './random.ts';
import type { CategoryReference, CountryReference, VerticalReference } from './reference-data.ts';
import type { SeededChange, SeededProduct } from './seeded-types.ts';
import type { StoreTimeline } from './store-timeline.ts';

/** products: 1 + log-normal(median 4.6, sigma 1.1), doubled for dropshippers: mean about 10 */
const PRODUCTS_MEDIAN = 4.6;
const PRODUCTS_SIGMA = 1.1;
const MAX_PRODUCTS = 5_000;
/** dropshippers sell cheaper goods */
const DROPSHIP_PRICE_FACTOR = 0.7;
const NEW_SKU_CHANCE = 0.08;
const PRICE_CHANGE_CHANCE = 0.12;
const REMOVED_SKU_CHANCE = 0.04;
const ON_SALE_CHANCE = 0.2;
const VARIANT_COUNTS = [1, 1, 1, 2, 3, 4, 5, 6, 8, 12];

const round2 = (n: number) => Math.round(n * 100) / 100;

/** a shop price: 24.99 in most currencies, whole units where one unit is worth little (JPY, INR) */
export function shopPrice(amount: number, usdRate: number): number {
  if (usdRate >= 20) return Math.max(1, Math.round(amount));
  return Math.max(0.99, Math.round(amount) - 0.01);
}

export const money = (amount: number, currency: string): string =>
  `${amount.toFixed(currency === 'JPY' ? 0 : 2)} ${currency}`;

export interface StoreCatalog {
  products: SeededProduct[];
  changes: SeededChange[];
  bestSellerCount: number;
  medianPriceUsd: number;
  /** history day on which each current product appeared, for those that appeared inside the window */
  addedDays: number[];
  /** history day on which each removed product disappeared */
  removedDays: number[];
}

export interface CatalogOwner {
  id: number;
  vertical: VerticalReference;
  category: CategoryReference;
  country: CountryReference;
  dropshipping: boolean;
  words: { modifiers: readonly string[]; colors: readonly string[] };
  nouns: readonly string[];
}

export function generateCatalog(
  rng: Random,
  timeline: StoreTimeline,
  owner: CatalogOwner,
): StoreCatalog {
  const { vertical, country } = owner;
  const currency = country.currency;
  const productCount = Math.min(
    MAX_PRODUCTS,
    1 + Math.floor(rng.logNormal(PRODUCTS_MEDIAN, PRODUCTS_SIGMA) * (owner.dropshipping ? 2 : 1)),
  );
  const priceFactor = (owner.dropshipping ? DROPSHIP_PRICE_FACTOR : 1) * country.usdRate;
  const drawPrice = () =>
    shopPrice(
      rng.logUniform(vertical.priceUsd.min, vertical.priceUsd.max) * priceFactor,
      country.usdRate,
    );
  const imageBase = `https://cdn.shopify.com/s/files/1/${(owner.id % 9000) + 1000}/${((owner.id * 7919) % 9000) + 1000}/products/`;
  const handles = new HandleSet();
  const usdPrices = new Float64Array(productCount);
  const products: SeededProduct[] = [];
  const changes: SeededChange[] = [];
  const addedDays: number[] = [];
  const removedDays: number[] = [];

  for (let i = 0; i < productCount; i++) {
    const { title, handle: wanted } = productTitle(rng, owner.words, owner.nouns);
    const handle = handles.claim(wanted);
    const price = drawPrice();
    usdPrices[i] = price / country.usdRate;
    const onSale = rng.chance(ON_SALE_CHANCE);
    const isNew = rng.chance(NEW_SKU_CHANCE);
    const publishedMs = isNew ? timeline.recent() : timeline.older();
    const addedDay = timeline.dayIndex(publishedMs);
    if (addedDay > 0) addedDays.push(addedDay);
    products.push({
      handle,
      title,
      productType: owner.category.name,
      price,
      compareAtPrice: onSale ? shopPrice(price * rng.uniform(1.15, 1.6), country.usdRate) : null,
      currency: currency === 'USD' ? null : currency,
      bestSellerRank: null,
      available: rng.chance(0.93),
      variantCount: rng.pick(VARIANT_COUNTS),
      imageUrl: `${imageBase}${handle}.jpg`,
      publishedAt: timeline.iso(publishedMs),
    });
    if (isNew) {
      changes.push({
        entity: 'product',
        changeType: 'new_sku',
        subject: handle,
        summary: `New product "${title}" at ${money(price, currency)}`,
        oldValue: null,
        newValue: price.toFixed(2),
        changePct: null,
        detectedAt: timeline.iso(publishedMs),
      });
    } else if (rng.chance(PRICE_CHANGE_CHANCE)) {
      // the current price is the outcome of the change
      const target = rng.chance(0.6) ? -rng.uniform(5, 50) : rng.uniform(5, 30);
      const oldPrice = round2(price / (1 + target / 100));
      const pct = percentChange(oldPrice, price);
      if (pct !== null && pct !== 0) {
        const up = pct > 0;
        changes.push({
          entity: 'product',
          changeType: up ? 'price_increase' : 'price_decrease',
          subject: handle,
          summary: `Price of "${title}" ${up ? 'rose' : 'dropped'} ${Math.abs(pct).toFixed(1)}% from ${money(oldPrice, currency)} to ${money(price, currency)}`,
          oldValue: oldPrice.toFixed(2),
          newValue: price.toFixed(2),
          changePct: pct,
          detectedAt: timeline.iso(timeline.recent()),
        });
      }
    }
  }

  // products that were on the store during the window and are gone now (handles unused today)
  for (let i = 0; i < productCount; i++) {
    if (!rng.chance(REMOVED_SKU_CHANCE)) continue;
    const { title, handle: wanted } = productTitle(rng, owner.words, owner.nouns);
    const handle = handles.claim(wanted);
    const price = drawPrice();
    const removedMs = timeline.recent();
    removedDays.push(timeline.dayIndex(removedMs));
    changes.push({
      entity: 'product',
      changeType: 'removed_sku',
      subject: handle,
      summary: `Product "${title}" removed (was ${money(price, currency)})`,
      oldValue: price.toFixed(2),
      newValue: null,
      changePct: null,
      detectedAt: timeline.iso(removedMs),
    });
  }

  // 5-10% of the catalog are best sellers, ranked 1..k in a random order
  const bestSellerCount = Math.min(
    productCount,
    Math.floor(productCount * rng.uniform(0.05, 0.1) + rng.next()),
  );
  for (let rank = 1; rank <= bestSellerCount; rank++) {
    let pick = rng.int(0, productCount - 1);
    while (products[pick]!.bestSellerRank !== null) pick = (pick + 1) % productCount;
    products[pick]!.bestSellerRank = rank;
  }

  usdPrices.sort();
  const mid = productCount >> 1;
  const medianPriceUsd = round2(
    productCount % 2 ? usdPrices[mid]! : (usdPrices[mid - 1]! + usdPrices[mid]!) / 2,
  );
  return { products, changes, bestSellerCount, medianPriceUsd, addedDays, removedDays };
}
