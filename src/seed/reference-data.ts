// The reference data files under data/ (apps, taxonomy, countries, vocabulary), read once and
// validated, so a typo in a data file stops the seed with the file and field named.
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { WeightedPicker } from './random.ts';

const DATA_DIR = new URL('../../data/', import.meta.url);

const appSchema = z
  .object({
    slug: z.string().regex(/^[a-z0-9-]+$/),
    name: z.string().min(1),
    developer: z.string().min(1),
    category: z.string().min(1),
    pricing: z.string().min(1),
    rating: z.number().min(1).max(5),
    reviewCount: z.number().int().nonnegative(),
    installRate: z.number().min(0).max(1),
    dropshipping: z.boolean(),
    detectionPatterns: z.array(z.string().min(1)),
    /** why the app cannot be detected from a storefront (it works from the admin only, or no
     *  trace of it was ever found); such an app has no detection patterns */
    notDetectable: z.string().min(1).optional(),
  })
  .refine((app) => (app.detectionPatterns.length === 0) === (app.notDetectable !== undefined), {
    message: 'an app has detection patterns, or no patterns and a notDetectable reason',
    path: ['detectionPatterns'],
  });

const categorySchema = z.object({
  slug: z.string().regex(/^[a-z0-9-]+$/),
  name: z.string().min(1),
  path: z.string().min(1),
  weight: z.number().positive(),
});

const verticalSchema = z.object({
  slug: z.string().regex(/^[a-z0-9-]+$/),
  name: z.string().min(1),
  taxonomyId: z.string().min(1),
  industry: z.string().min(1),
  weight: z.number().positive(),
  priceUsd: z.object({ min: z.number().positive(), max: z.number().positive() }),
  categories: z.array(categorySchema).min(4).max(10),
});

const countrySchema = z.object({
  code: z.string().regex(/^[A-Z]{2}$/),
  name: z.string().min(1),
  weight: z.number().positive(),
  currency: z.string().regex(/^[A-Z]{3}$/),
  usdRate: z.number().positive(),
});

const words = z.array(z.string().min(1)).min(1);
const vocabularySchema = z.object({
  brandPrefixes: z.array(z.string().regex(/^[a-z]+$/)).min(10),
  brandSuffixes: z.array(z.string().regex(/^[a-z]+$/)).min(10),
  themes: words,
  /** storefront wording of dropshipping stores; the scraper counts them as dropship text signals */
  dropshipPhrases: words,
  verticals: z.record(z.string(), z.object({ brandWords: words, modifiers: words, colors: words })),
  categoryNouns: z.record(z.string(), words),
});

export type AppReference = z.infer<typeof appSchema>;
export type CategoryReference = z.infer<typeof categorySchema>;
export type VerticalReference = z.infer<typeof verticalSchema>;
export type CountryReference = z.infer<typeof countrySchema>;
export type Vocabulary = z.infer<typeof vocabularySchema>;

function readData<T>(file: string, schema: z.ZodType<T>): T {
  const raw: unknown = JSON.parse(readFileSync(new URL(file, DATA_DIR), 'utf8'));
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`data/${file} is invalid: ${problems}`);
  }
  return parsed.data;
}

export interface ReferenceData {
  apps: AppReference[];
  verticals: VerticalReference[];
  countries: CountryReference[];
  vocabulary: Vocabulary;
}

let cached: ReferenceData | undefined;

/** All reference files, validated and cross-checked (every category has product nouns, ...). */
export function loadReferenceData(): ReferenceData {
  if (cached) return cached;
  const apps = readData('apps.json', z.object({ apps: z.array(appSchema).min(1) })).apps;
  const verticals = readData(
    'taxonomy.json',
    z.object({ verticals: z.array(verticalSchema).min(1) }),
  ).verticals;
  const countries = readData(
    'countries.json',
    z.object({ countries: z.array(countrySchema).min(1) }),
  ).countries;
  const vocabulary = readData('vocabulary.json', vocabularySchema);

  const duplicate = (values: string[]) => values.find((v, i) => values.indexOf(v) !== i);
  const dupApp = duplicate(apps.map((a) => a.slug));
  if (dupApp) throw new Error(`data/apps.json: slug ${dupApp} appears twice`);
  for (const v of verticals) {
    if (!vocabulary.verticals[v.slug])
      throw new Error(`data/vocabulary.json: no words for vertical ${v.slug}`);
    if (v.priceUsd.min >= v.priceUsd.max)
      throw new Error(`data/taxonomy.json: ${v.slug} price range is empty`);
    for (const c of v.categories) {
      if (!vocabulary.categoryNouns[c.slug])
        throw new Error(`data/vocabulary.json: no nouns for category ${c.slug}`);
    }
  }
  cached = { apps, verticals, countries, vocabulary };
  return cached;
}

/** Reference data prepared for drawing: weighted pickers over verticals, categories and countries. */
export interface Sampler {
  data: ReferenceData;
  verticals: WeightedPicker<VerticalReference>;
  categories: Map<string, WeightedPicker<CategoryReference>>;
  countries: WeightedPicker<CountryReference>;
}

export function createSampler(data: ReferenceData = loadReferenceData()): Sampler {
  return {
    data,
    verticals: new WeightedPicker(data.verticals, (v) => v.weight),
    categories: new Map(
      data.verticals.map((v) => [v.slug, new WeightedPicker(v.categories, (c) => c.weight)]),
    ),
    countries: new WeightedPicker(data.countries, (c) => c.weight),
  };
}
