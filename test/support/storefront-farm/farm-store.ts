// One simulated storefront of the farm, a pure function of (store index, epoch): who it is (name,
// country, currency, theme, apps), how it answers (its behaviour: ordinary, rate-limited, failing,
// moved, ...) and, drawn lazily because only JSON routes need it, its catalog of products with
// variants. Nothing is stored: 10,000 stores cost nothing until they are asked for.
//
// Epochs are the farm's clock of change. At epoch 0 a store is as generated; at each later epoch
// about CHANGE_RATE of the stores change (prices, new and removed products, sold-out variants,
// stock sold, apps installed, removed and installed again, now and then the theme), the changes of every epoch up
// to the current one applied in order. So two observations of a store in different epochs see the
// difference, and the same epoch always serves the same bytes.
import { Random, hashSeed } from '../../../src/seed/random.ts';
import {
  createSampler,
  type AppReference,
  type CountryReference,
  type Sampler,
} from '../../../src/seed/reference-data.ts';
import { capitalize, HandleSet, productTitle } from '../../../src/seed/names.ts';
import { shopPrice } from '../../../src/seed/store-catalog.ts';

/** How a store answers. Shares of the farm are in BEHAVIOURS. */
export type Behaviour =
  /** answers everything */
  | 'ordinary'
  /** products.json answers every other request 429 with Retry-After: 1 */
  | 'rate-limited'
  /** products.json always answers 429 with Retry-After: 120 */
  | 'throttled'
  /** products.json answers 502 */
  | 'failing-products'
  /** the homepage answers 503 without Retry-After */
  | 'failing-homepage'
  /** the homepage's connection is reset before any answer */
  | 'reset'
  /** every answer waits 0.2 to 1.5 s */
  | 'slow'
  /** every page redirects (301) to the store's new host, m<index>.<domain> */
  | 'moved'
  /** from epoch 1 on, the store is closed: Shopify's "store unavailable" page and 404s */
  | 'vanishing'
  /** a plain website, not a Shopify storefront */
  | 'not-shopify'
  /** robots.txt disallows everything to every user agent */
  | 'disallowed'
  /** ordinary at epoch 0, then moved as `moved` stores are (a store that moves after it entered the catalog) */
  | 'moves-later'
  /** ordinary at epoch 0, then products.json answers 502 */
  | 'breaks-later'
  /** ordinary at epoch 0, then products.json answers 429 with Retry-After: 120 */
  | 'throttles-later'
  /** answers only on its www. name: its apex resets every connection (as a name without an address would fail) */
  | 'www-only'
  /** robots.txt answers 429 with Retry-After: 120 (a busy host: wait, never read as allow-all) */
  | 'robots-busy';

/** Shares of behaviours (the rest is ordinary), in a fixed order so a store's behaviour never depends on the farm's size. */
export const BEHAVIOURS: ReadonlyArray<readonly [Behaviour, number]> = [
  ['rate-limited', 0.04],
  ['throttled', 0.005],
  ['failing-products', 0.005],
  ['failing-homepage', 0.005],
  ['reset', 0.005],
  ['slow', 0.02],
  ['moved', 0.01],
  ['vanishing', 0.01],
  ['not-shopify', 0.005],
  ['disallowed', 0.003],
  // appended last, so that adding them changed no other store's behaviour
  ['moves-later', 0.005],
  ['breaks-later', 0.01],
  ['throttles-later', 0.005],
  ['www-only', 0.003],
  ['robots-busy', 0.003],
];

/** Behaviours that start at epoch 1: the store is ordinary until then. */
const LATER: Partial<Record<Behaviour, Behaviour>> = {
  'moves-later': 'moved',
  'breaks-later': 'failing-products',
  'throttles-later': 'throttled',
};

/** How a store answers at an epoch. */
export const behaviourAt = (behaviour: Behaviour, epoch: number): Behaviour =>
  LATER[behaviour] ? (epoch > 0 ? LATER[behaviour]! : 'ordinary') : behaviour;

/** share of stores that change at each epoch */
export const CHANGE_RATE = 0.3;
/** share of changing stores that install again an app they dropped at an earlier epoch */
export const REINSTALL_RATE = 0.3;
/** share of stores with more than one products.json page (251 to 900 products) */
export const BIG_CATALOG_SHARE = 0.04;
/** share of stores whose variants carry inventory_quantity */
export const INVENTORY_SHARE = 0.3;
/** share of stores with a best-sellers collection (others are read sorted by best-selling) */
export const BEST_SELLERS_SHARE = 0.4;
export const DROPSHIPPER_SHARE = 0.12;

export interface FarmVariant {
  id: number;
  title: string;
  option1: string | null;
  option2: string | null;
  sku: string;
  price: number;
  compareAtPrice: number | null;
  available: boolean;
  /** null when the store does not expose stock */
  inventoryQuantity: number | null;
  grams: number;
}

export interface FarmProduct {
  id: number;
  title: string;
  handle: string;
  vendor: string;
  productType: string;
  tags: string[];
  description: string;
  /** epoch seconds */
  createdAt: number;
  publishedAt: number;
  updatedAt: number;
  options: Array<{ name: string; values: string[] }>;
  variants: FarmVariant[];
  images: Array<{ id: number; src: string; width: number; height: number }>;
  /** lower sells more */
  salesRank: number;
}

export interface FarmStore {
  index: number;
  host: string;
  epoch: number;
  behaviour: Behaviour;
  shopId: number;
  name: string;
  /** <handle>.myshopify.com */
  myshopifyHandle: string;
  country: CountryReference;
  currency: string;
  theme: { name: string; id: number; version: string };
  apps: AppReference[];
  /** apps the store ran at an earlier epoch and dropped, not (yet) installed again */
  dropped: AppReference[];
  dropshipPhrases: string[];
  exposesInventory: boolean;
  hasBestSellers: boolean;
  email: string;
  instagram: string;
  /** other farm hosts this store's homepage links to (as "our friends") */
  links: string[];
  products(): FarmProduct[];
}

export interface FarmOptions {
  /** the farm's parent domain: stores are s<index>.<domain> */
  domain: string;
  /** stores listed (s0 … s<stores-1>); as many again past them exist unlisted, linked from listed ones */
  stores: number;
  seed: number;
}

const SIZES = ['XS', 'S', 'M', 'L', 'XL'];
const EPOCH_0 = Date.UTC(2026, 0, 5) / 1000;
const DAY = 86_400;

let sampler: Sampler | undefined;
const reference = () => (sampler ??= createSampler());

export function behaviourOf(seed: number, index: number): Behaviour {
  const roll = new Random(seed, index, hashSeed('behaviour')).next();
  let edge = 0;
  for (const [behaviour, share] of BEHAVIOURS) {
    edge += share;
    if (roll < edge) return behaviour;
  }
  return 'ordinary';
}

/** The store at `index` as it is at `epoch`. */
export function farmStore(options: FarmOptions, index: number, epoch: number): FarmStore {
  const { data } = reference();
  const rng = new Random(options.seed, index);
  const vertical = reference().verticals.pick(rng);
  const category = reference().categories.get(vertical.slug)!.pick(rng);
  const country = reference().countries.pick(rng);
  const words = data.vocabulary.verticals[vertical.slug]!;
  const nouns = data.vocabulary.categoryNouns[category.slug]!;
  const core = rng.pick(data.vocabulary.brandPrefixes) + rng.pick(data.vocabulary.brandSuffixes);
  const name = `${capitalize(core)} ${rng.pick(words.brandWords)}`;
  const dropshipping = rng.chance(DROPSHIPPER_SHARE);
  const exposesInventory = rng.chance(INVENTORY_SHARE);
  const hasBestSellers = rng.chance(BEST_SELLERS_SHARE);
  const big = rng.chance(BIG_CATALOG_SHARE);
  const productCount = big
    ? rng.int(251, 900)
    : Math.min(240, Math.max(1, Math.round(rng.logNormal(24, 0.9) * (dropshipping ? 2 : 1))));
  const catalogSeed = rng.uint32();
  const themeName = rng.pick(data.vocabulary.themes);
  const apps = data.apps.filter(
    (app) =>
      rng.chance(Math.min(0.6, app.installRate * (app.dropshipping && !dropshipping ? 0.1 : 2))) &&
      (dropshipping || !app.dropshipping || rng.chance(0.1)),
  );
  const dropshipPhrases = dropshipping
    ? data.vocabulary.dropshipPhrases.filter(() => rng.chance(0.4))
    : [];
  const linkCount = rng.chance(0.05) ? rng.int(1, 3) : 0;
  const links = Array.from(
    { length: linkCount },
    () => `s${options.stores + rng.int(0, options.stores - 1)}.${options.domain}`,
  );
  const host = `s${index}.${options.domain}`;
  const store: FarmStore = {
    index,
    host,
    epoch,
    behaviour: behaviourOf(options.seed, index),
    shopId: 50_000_000 + index,
    name,
    myshopifyHandle: `${core}${index}`,
    country,
    currency: country.currency,
    theme: {
      name: themeName,
      id: 120_000_000_000 + index * 10,
      version: `${rng.int(10, 15)}.${rng.int(0, 4)}.0`,
    },
    apps,
    dropped: [],
    dropshipPhrases,
    exposesInventory,
    hasBestSellers,
    email: `hello@${core}.example`,
    instagram: core.slice(0, 30),
    links,
    products: () => {
      const products = generateProducts(new Random(catalogSeed), {
        index,
        productCount,
        name,
        vertical,
        category,
        country,
        words,
        nouns,
        exposesInventory,
        dropshipping,
      });
      return products;
    },
  };
  for (let k = 1; k <= epoch; k++) applyEpoch(store, options, k);
  return store;
}

interface CatalogInputs {
  index: number;
  productCount: number;
  name: string;
  vertical: { priceUsd: { min: number; max: number } };
  category: { name: string };
  country: CountryReference;
  words: { modifiers: readonly string[]; colors: readonly string[] };
  nouns: readonly string[];
  exposesInventory: boolean;
  dropshipping: boolean;
}

function generateProducts(rng: Random, inputs: CatalogInputs): FarmProduct[] {
  const handles = new HandleSet();
  return Array.from({ length: inputs.productCount }, (_, i) => newProduct(rng, inputs, handles, i));
}

function newProduct(
  rng: Random,
  inputs: CatalogInputs,
  handles: HandleSet,
  serial: number,
): FarmProduct {
  const { country } = inputs;
  const { title, handle: wanted } = productTitle(rng, inputs.words, inputs.nouns);
  const handle = handles.claim(wanted);
  const id = 7_000_000_000_000 + inputs.index * 10_000 + serial;
  const basePrice = shopPrice(
    rng.logUniform(inputs.vertical.priceUsd.min, inputs.vertical.priceUsd.max) *
      country.usdRate *
      (inputs.dropshipping ? 0.6 : 1),
    country.usdRate,
  );
  const onSale = rng.chance(0.3);
  const sizes = rng.chance(0.45) ? SIZES.slice(rng.int(0, 1), rng.int(3, 5)) : null;
  const colors = rng.chance(0.3) ? inputs.words.colors.slice(0, rng.int(2, 3)) : null;
  const soldOut = rng.chance(0.05);
  const created = EPOCH_0 - rng.int(10, 900) * DAY;
  const variants: FarmVariant[] = [];
  for (const size of sizes ?? [null]) {
    for (const color of colors ?? [null]) {
      const price = size === 'XL' ? shopPrice(basePrice * 1.1, country.usdRate) : basePrice;
      const stock = soldOut || rng.chance(0.08) ? 0 : rng.int(1, 120);
      variants.push({
        id: 40_000_000_000_000 + id - 7_000_000_000_000 + variants.length * 1_000_000_000,
        title: [size, color].filter(Boolean).join(' / ') || 'Default Title',
        option1: size ?? color ?? 'Default Title',
        option2: size && color ? color : null,
        sku: `${handle.slice(0, 12).toUpperCase()}-${variants.length + 1}`,
        price,
        compareAtPrice: onSale ? shopPrice(price * rng.uniform(1.15, 1.6), country.usdRate) : null,
        available: stock > 0,
        inventoryQuantity: inputs.exposesInventory ? stock : null,
        grams: rng.int(50, 2_000),
      });
    }
  }
  const options = [
    ...(sizes ? [{ name: 'Size', values: sizes }] : []),
    ...(colors ? [{ name: 'Color', values: colors }] : []),
  ];
  const imageCount = rng.int(1, 4);
  const fileBase = `https://cdn.shopify.com/s/files/1/${String(inputs.index).padStart(4, '0')}/${String(id % 10_000).padStart(4, '0')}/files/`;
  return {
    id,
    title,
    handle,
    vendor: rng.chance(0.8)
      ? inputs.name
      : `${capitalize(rng.pick(inputs.words.modifiers).split(' ')[0]!)} Supply`,
    productType: rng.chance(0.9) ? inputs.category.name : '',
    tags: [
      inputs.category.name.toLowerCase(),
      ...(onSale ? ['sale'] : []),
      ...(rng.chance(0.3) ? ['new'] : []),
    ],
    description: `<p>${title} from ${inputs.name}.</p><ul><li>Made with care</li><li>Ships from ${inputs.country.name}</li></ul>`,
    createdAt: created,
    publishedAt: created + rng.int(0, 5) * DAY,
    updatedAt: created + rng.int(5, 200) * DAY,
    options: options.length > 0 ? options : [{ name: 'Title', values: ['Default Title'] }],
    variants,
    images: Array.from({ length: imageCount }, (_, n) => ({
      id: id * 10 + n,
      src: `${fileBase}${handle}-${n + 1}.jpg?v=${created}`,
      width: 2048,
      height: 2048,
    })),
    salesRank: rng.int(1, 100_000),
  };
}

/**
 * The apps a store installed and dropped at `epoch` (slugs): what an observation before it and one
 * after it see change, apart from apps not detectable from a storefront (no loader, data/apps.json
 * notDetectable). None at epoch 0: a first observation finds apps already running.
 */
export function appChangesAt(
  options: FarmOptions,
  index: number,
  epoch: number,
): { installed: string[]; uninstalled: string[] } {
  if (epoch === 0) return { installed: [], uninstalled: [] };
  const before = new Set(farmStore(options, index, epoch - 1).apps.map((a) => a.slug));
  const after = new Set(farmStore(options, index, epoch).apps.map((a) => a.slug));
  return {
    installed: [...after].filter((slug) => !before.has(slug)).sort(),
    uninstalled: [...before].filter((slug) => !after.has(slug)).sort(),
  };
}

/** What changes in a store at epoch k (when it changes at all): wraps products() and mutates the rest. */
function applyEpoch(store: FarmStore, options: FarmOptions, k: number): void {
  const rng = new Random(options.seed, store.index, k, hashSeed('epoch'));
  if (!rng.chance(CHANGE_RATE)) return;
  const { data } = reference();
  const kinds = {
    prices: rng.chance(0.6),
    added: rng.chance(0.35) ? rng.int(1, 3) : 0,
    removed: rng.chance(0.25) ? rng.int(1, 2) : 0,
    stock: rng.chance(0.7),
    installs: rng.chance(0.15),
    uninstalls: rng.chance(0.1),
    theme: rng.chance(0.05),
  };
  const install = (app: AppReference) => {
    store.apps = [...store.apps, app];
    store.dropped = store.dropped.filter((a) => a.slug !== app.slug);
  };
  if (kinds.installs) {
    const candidate = rng.pick(data.apps);
    if (!store.apps.some((a) => a.slug === candidate.slug)) install(candidate);
  }
  if (kinds.uninstalls && store.apps.length > 0) {
    const gone = rng.pick(store.apps);
    store.apps = store.apps.filter((a) => a !== gone);
    store.dropped = [...store.dropped, gone];
  }
  // drawn apart, so the draws above and below (every other change of the epoch) stay as they were
  const again = new Random(options.seed, store.index, k, hashSeed('reinstall'));
  if (store.dropped.length > 0 && again.chance(REINSTALL_RATE)) {
    const back = again.pick(store.dropped);
    if (!kinds.uninstalls || back !== store.dropped.at(-1)) install(back);
  }
  if (kinds.theme) {
    store.theme = {
      ...store.theme,
      name: rng.pick(data.vocabulary.themes.filter((t) => t !== store.theme.name)),
      id: store.theme.id + k,
    };
  }
  const catalogSeed = rng.uint32();
  const earlier = store.products;
  const updatedAt = EPOCH_0 + k * DAY;
  store.products = () => {
    const r = new Random(catalogSeed);
    const products = earlier().map((p) => ({ ...p, variants: p.variants.map((v) => ({ ...v })) }));
    if (kinds.prices) {
      for (let n = r.int(1, 5); n > 0 && products.length > 0; n--) {
        const product = r.pick(products);
        const factor = r.chance(0.6) ? r.uniform(0.7, 0.95) : r.uniform(1.05, 1.3);
        for (const variant of product.variants)
          variant.price = shopPrice(variant.price * factor, store.country.usdRate);
        product.updatedAt = updatedAt;
      }
    }
    if (kinds.stock) {
      for (const product of products) {
        for (const variant of product.variants) {
          if (!r.chance(0.2)) continue;
          const restock = r.chance(0.1);
          const now = variant.inventoryQuantity ?? (variant.available ? 10 : 0);
          const next = restock ? now + r.int(20, 100) : Math.max(0, now - r.int(1, 4));
          variant.available = next > 0;
          if (variant.inventoryQuantity !== null) variant.inventoryQuantity = next;
        }
      }
    }
    for (let n = kinds.removed; n > 0 && products.length > 1; n--)
      products.splice(r.int(0, products.length - 1), 1);
    if (kinds.added > 0) {
      const handles = new HandleSet();
      for (const p of products) handles.claim(p.handle);
      const first = products[0];
      for (let n = 0; n < kinds.added && first; n++) {
        const added = { ...first, variants: first.variants.map((v) => ({ ...v })) };
        const fresh = newProductLike(r, added, handles, k * 100 + n);
        products.unshift({
          ...fresh,
          createdAt: updatedAt,
          publishedAt: updatedAt,
          updatedAt,
          salesRank: r.int(1, 100_000),
        });
      }
    }
    return products;
  };
}

/** A new product in the same store: another title and handle, new ids, the template's variant shape. */
function newProductLike(
  rng: Random,
  template: FarmProduct,
  handles: HandleSet,
  serial: number,
): FarmProduct {
  const suffix = ['Edition', 'Drop', 'Release', 'Series'][serial % 4]!;
  const title = `${template.title.split(' - ')[0]} ${suffix} ${serial}`;
  const handle = handles.claim(title.toLowerCase().replace(/[^a-z0-9]+/g, '-'));
  const id = template.id + 5_000 + serial;
  const factor = rng.uniform(0.8, 1.4);
  return {
    ...template,
    id,
    title,
    handle,
    variants: template.variants.map((v, n) => ({
      ...v,
      id: v.id + 5_000 + serial,
      sku: `${handle.slice(0, 12).toUpperCase()}-${n + 1}`,
      price: Math.round(v.price * factor * 100) / 100,
    })),
    images: template.images.map((image, n) => ({
      ...image,
      id: id * 10 + n,
      src: image.src.replace(template.handle, handle),
    })),
  };
}

/** The store behind a farm host name, or null: s<index> (listed or unlisted) and m<index> (where a moved store went). */
export function parseFarmHost(
  options: FarmOptions,
  host: string,
): { index: number; movedTo: boolean; www: boolean } | null {
  const suffix = `.${options.domain}`;
  if (!host.endsWith(suffix)) return null;
  const www = host.startsWith('www.');
  const match = /^(s|m)(\d{1,9})$/.exec(host.slice(www ? 4 : 0, -suffix.length));
  if (!match) return null;
  const index = Number(match[2]);
  if (index >= options.stores * 2 || String(index) !== match[2]) return null;
  const movedTo = match[1] === 'm';
  const behaviour = behaviourOf(options.seed, index);
  if (movedTo && behaviour !== 'moved' && behaviour !== 'moves-later') return null;
  return { index, movedTo, www };
}
