// Synthetic but plausible names: store domains and brands ("northwind.shop.example", "Northwind Apparel")
// and product titles and handles ("Organic Cotton Crew Tee", "organic-cotton-crew-tee").
import type { Random } from './random.ts';
import type { Vocabulary } from './reference-data.ts';
import { SYNTHETIC_TLD } from '../stores/domain.ts';

/**
 * Domain endings. All lie under the reserved top-level domain .example (RFC 2606), which never
 * resolves: a synthetic store looks like a store (northwind.shop.example) but no scrape, probe or
 * browser of this service can ever send traffic to a real third-party site in its name. Every
 * ending starts with "." or "-" and brand cores are letters only, so a domain splits back into
 * (core, tier number, ending) in one way: different triples never collide.
 */
export const DOMAIN_ENDINGS = [
  '.com',
  '.co',
  '.shop',
  '.store',
  '-shop',
  '-store',
  '.net',
  '-co',
  '-official',
  '-hq',
].map((ending) => `${ending}.${SYNTHETIC_TLD}`);

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

export interface BrandNamer {
  /** how many distinct domains exist before tier numbers are needed */
  readonly capacity: number;
  /** the store's brand core ("northwind") and its domain, a pure function of the store id */
  forStore(id: number): { core: string; domain: string };
}

/**
 * Domains derive from the store id, not from the run's seed: ids are unique in the catalog, so
 * domains are too, across --append runs with different seeds, without remembering any of them.
 * A fixed stride permutes ids over (prefix, suffix, ending) so neighbouring ids look unrelated;
 * past the capacity, a tier number joins the core ("northwind2.shop.example").
 */
export function createBrandNamer(
  vocabulary: Pick<Vocabulary, 'brandPrefixes' | 'brandSuffixes'>,
): BrandNamer {
  const prefixes = vocabulary.brandPrefixes;
  const suffixes = vocabulary.brandSuffixes;
  const capacity = prefixes.length * suffixes.length * DOMAIN_ENDINGS.length;
  let stride = 7919;
  while (gcd(stride, capacity) !== 1) stride += 2;
  return {
    capacity,
    forStore(id: number) {
      const index = id - 1;
      const tier = Math.floor(index / capacity);
      const slot = ((index % capacity) * stride) % capacity;
      const ending = DOMAIN_ENDINGS[slot % DOMAIN_ENDINGS.length]!;
      const pair = Math.floor(slot / DOMAIN_ENDINGS.length);
      const core =
        prefixes[pair % prefixes.length]! + suffixes[Math.floor(pair / prefixes.length)]!;
      return { core, domain: `${core}${tier > 0 ? tier + 1 : ''}${ending}` };
    },
  };
}

export const capitalize = (word: string): string => word.charAt(0).toUpperCase() + word.slice(1);

/** "organic-cotton-crew-tee" from "Organic Cotton Crew Tee" (Shopify's handle rules, ASCII only). */
export function handleize(title: string): string {
  return title
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/['’]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

// Handles of the vocabulary's words, computed once: a title's handle is its words' handles joined.
const wordHandles = new Map<string, string>();

function wordHandle(word: string): string {
  let handle = wordHandles.get(word);
  if (handle === undefined) {
    handle = handleize(word);
    wordHandles.set(word, handle);
  }
  return handle;
}

export interface ProductName {
  title: string;
  /** handleize(title), built from the words */
  handle: string;
}

/** A product title in the store's vertical and category: [modifier] [colour] noun. */
export function productTitle(
  rng: Random,
  words: { modifiers: readonly string[]; colors: readonly string[] },
  nouns: readonly string[],
): ProductName {
  const noun = rng.pick(nouns);
  const modifier = rng.pick(words.modifiers);
  const roll = rng.next();
  if (roll < 0.3)
    return { title: `${modifier} ${noun}`, handle: `${wordHandle(modifier)}-${wordHandle(noun)}` };
  if (roll < 0.55) {
    const color = rng.pick(words.colors);
    return {
      title: `${modifier} ${noun} - ${color}`,
      handle: `${wordHandle(modifier)}-${wordHandle(noun)}-${wordHandle(color)}`,
    };
  }
  if (roll < 0.75) {
    const color = rng.pick(words.colors);
    return { title: `${color} ${noun}`, handle: `${wordHandle(color)}-${wordHandle(noun)}` };
  }
  const second = rng.pick(words.modifiers);
  if (second === modifier)
    return { title: `${modifier} ${noun}`, handle: `${wordHandle(modifier)}-${wordHandle(noun)}` };
  return {
    title: `${modifier} ${second} ${noun}`,
    handle: `${wordHandle(modifier)}-${wordHandle(second)}-${wordHandle(noun)}`,
  };
}

/** Keeps handles unique within one store: "crew-tee", "crew-tee-2", ... */
export class HandleSet {
  private readonly used = new Set<string>();

  claim(handle: string): string {
    const base = handle || 'product';
    let unique = base;
    for (let n = 2; this.used.has(unique); n++) unique = `${base}-${n}`;
    this.used.add(unique);
    return unique;
  }
}
