// What every store of one seeding run shares: the seed, the reference data ready for drawing, the
// apps with their database ids, and the calendar (180 history days and 24 traffic months ending today).
import { createBrandNamer, type BrandNamer } from './names.ts';
import { hashSeed, WeightedPicker } from './random.ts';
import { createSampler, type AppReference, type Sampler } from './reference-data.ts';

export const HISTORY_DAYS = 180;
export const TRAFFIC_MONTHS = 24;
/** change records cover this many days before the last scrape */
export const CHANGE_WINDOW_DAYS = 90;
export const DAY_MS = 86_400_000;

export interface SeedApp extends AppReference {
  id: number;
  isReviews: boolean;
  isSupport: boolean;
}

export interface SeedContext {
  seed: number;
  sampler: Sampler;
  namer: BrandNamer;
  /** midnight UTC of the last history day */
  todayMs: number;
  /** 'YYYY-MM-DD' of the history days, oldest first, the last one today */
  days: string[];
  /** 'YYYY-MM-01' of the traffic months, oldest first, the last one the current month */
  months: string[];
  apps: SeedApp[];
  ordinaryApps: SeedApp[];
  dropshippingApps: SeedApp[];
  /** a dropshipping app in proportion to installRate */
  dropshippingAppPicker: WeightedPicker<SeedApp>;
  /** an ordinary app in proportion to installRate (the apps stores try and drop) */
  ordinaryAppPicker: WeightedPicker<SeedApp>;
}

export function utcMidnight(date: Date): number {
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate());
}

export function createSeedContext(options: {
  seed: string | number;
  today?: Date;
  /** apps.id of each slug of data/apps.json, as stored */
  appIds: ReadonlyMap<string, number>;
  sampler?: Sampler;
}): SeedContext {
  const sampler = options.sampler ?? createSampler();
  const todayMs = utcMidnight(options.today ?? new Date());
  const days = Array.from({ length: HISTORY_DAYS }, (_, i) =>
    new Date(todayMs - (HISTORY_DAYS - 1 - i) * DAY_MS).toISOString().slice(0, 10),
  );
  const today = new Date(todayMs);
  const months = Array.from({ length: TRAFFIC_MONTHS }, (_, i) =>
    new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() - (TRAFFIC_MONTHS - 1 - i), 1))
      .toISOString()
      .slice(0, 10),
  );
  const apps = sampler.data.apps.map((app): SeedApp => {
    const id = options.appIds.get(app.slug);
    if (id === undefined) throw new Error(`app ${app.slug} has no database id`);
    return {
      ...app,
      id,
      isReviews: app.category === 'Reviews',
      isSupport: app.category === 'Customer support' || app.category === 'Live chat',
    };
  });
  const dropshippingApps = apps.filter((a) => a.dropshipping);
  // an app retired from the App Store (installRate 0) is detected on real stores, never drawn
  const ordinaryApps = apps.filter((a) => !a.dropshipping && a.installRate > 0);
  return {
    seed: hashSeed(options.seed),
    sampler,
    namer: createBrandNamer(sampler.data.vocabulary),
    todayMs,
    days,
    months,
    apps,
    ordinaryApps,
    dropshippingApps,
    dropshippingAppPicker: new WeightedPicker(dropshippingApps, (a) => a.installRate),
    ordinaryAppPicker: new WeightedPicker(ordinaryApps, (a) => a.installRate),
  };
}
