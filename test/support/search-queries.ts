// Store search queries drawn from a seeded catalog, the way people type them: a brand word, its
// prefix while typing, the same word with typing mistakes, the exact name, the full domain, the
// domain without its TLD, common words, three letters, and words no store has. The relevance suite
// (test/stores/relevance.test.ts) labels them with the stores they must find; the bench's fuzzy
// family (bench/families.ts) rotates through them. Deterministic for a given sample and seed.

export type QueryKind =
  | 'brand'
  | 'typo'
  | 'prefix'
  | 'name'
  | 'domain'
  | 'stem'
  | 'common'
  | 'three-letter'
  | 'nonsense';

export interface SearchQuery {
  q: string;
  kind: QueryKind;
  /** the sampled store the query was made from (none for common words and nonsense) */
  domain?: string;
  /** that store's brand word: the first word of its name ("birchgarden" of "Birchgarden Home") */
  brand?: string;
}

export interface SampledStore {
  domain: string;
  name: string;
}

/** mulberry32: a small deterministic generator, enough to pick letters and positions */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/**
 * `word` with typing mistakes: a swap of two neighbouring letters, or `edits` single-letter
 * deletions, substitutions and insertions, never on the first letter (people rarely miss it) and
 * never giving back the word itself.
 */
export function withTypos(word: string, next: () => number, edits: 1 | 2, swap: boolean): string {
  const pick = (n: number) => Math.floor(next() * n);
  if (swap && word.length >= 4) {
    for (let tries = 0; tries < 10; tries++) {
      const i = 1 + pick(word.length - 2);
      if (word[i] === word[i + 1]) continue;
      return word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2);
    }
  }
  let typed = word;
  for (let e = 0; e < edits; e++) {
    const i = 1 + pick(typed.length - 1);
    const kind = pick(3);
    const letter = LETTERS[pick(LETTERS.length)]!;
    if (kind === 0 && typed.length > 4) typed = typed.slice(0, i) + typed.slice(i + 1);
    else if (kind === 1 && typed[i] !== letter)
      typed = typed.slice(0, i) + letter + typed.slice(i + 1);
    else typed = typed.slice(0, i) + letter + typed.slice(i);
  }
  return typed === word ? `${word.slice(0, 1)}${word.slice(2)}` : typed;
}

const brandOf = (name: string) => name.split(' ')[0]!.toLowerCase();
/** the domain without its last label: birchgarden.shop.example → birchgarden.shop */
const stemOf = (domain: string) => domain.replace(/\.[^.]*$/, '');

/** Strings no store of the catalog holds: letters in no brand's order. */
const NONSENSE = ['xqzvbtk', 'qwxzjv', 'zzkqpf', 'vbnxqz', 'jqxwvk', 'pfzqxj', 'kxzqvw', 'wqzjxb'];

/**
 * `perKind` queries of each kind from `stores` (more stores than perKind, distinct brands). Common
 * words are the second and later words of the sampled names, three letters the start of brands.
 */
export function searchQueries(
  stores: readonly SampledStore[],
  perKind: number,
  seed = 7,
): SearchQuery[] {
  const next = random(seed);
  const byBrand = new Map<string, SampledStore>();
  for (const store of stores)
    if (!byBrand.has(brandOf(store.name))) byBrand.set(brandOf(store.name), store);
  const sampled = [...byBrand.values()];
  const take = <T>(items: readonly T[], offset: number) =>
    items
      .slice(offset % Math.max(1, items.length))
      .concat(items)
      .slice(0, perKind);
  const queries: SearchQuery[] = [];
  const from = (
    kind: QueryKind,
    offset: number,
    q: (store: SampledStore, brand: string) => string,
  ) => {
    for (const store of take(sampled, offset)) {
      const brand = brandOf(store.name);
      queries.push({ q: q(store, brand), kind, domain: store.domain, brand });
    }
  };
  from('brand', 0, (_s, brand) => brand);
  from('typo', perKind, (_s, brand) =>
    withTypos(brand, next, brand.length >= 6 && next() < 0.5 ? 2 : 1, next() < 0.4),
  );
  // typed far enough to narrow the brands down to a few ("birchg"): four letters such as "star" begin a hundred brands
  from('prefix', 2 * perKind, (_s, brand) => brand.slice(0, Math.max(5, brand.length - 3)));
  from('name', 3 * perKind, (s) => s.name);
  from('domain', 4 * perKind, (s) => s.domain);
  from('stem', 5 * perKind, (s) => stemOf(s.domain));
  from('three-letter', 6 * perKind, (_s, brand) => brand.slice(0, 3));
  const common = [
    ...new Set(
      stores
        .flatMap((s) => s.name.split(' ').slice(1))
        .map((w) => w.toLowerCase().replace(/[^a-z]/g, ''))
        .filter((w) => w.length >= 3),
    ),
  ];
  for (const word of take(common, 0)) queries.push({ q: word, kind: 'common' });
  for (const word of NONSENSE.slice(0, perKind)) queries.push({ q: word, kind: 'nonsense' });
  // three letters repeat across brands; each query once
  const seen = new Set<string>();
  return queries.filter((query) => {
    if (seen.has(query.q)) return false;
    seen.add(query.q);
    return true;
  });
}

export type TitleQueryKind =
  | 'word'
  | 'two-words'
  | 'title'
  | 'prefix'
  | 'typo'
  | 'three-letter'
  | 'nonsense';

/** Product title queries from sampled titles: `perKind` of each kind (fewer when the titles run out). */
export function titleQueries(
  titles: readonly string[],
  perKind: number,
  seed = 11,
): Array<{ q: string; kind: TitleQueryKind }> {
  const next = random(seed);
  const wordsOf = (title: string) =>
    title
      .toLowerCase()
      .split(/[^a-z]+/)
      .filter((w) => w.length >= 3);
  const words = [...new Set(titles.flatMap(wordsOf))];
  const long = words.filter((w) => w.length >= 5);
  const pairs = [
    ...new Set(
      titles
        .map(wordsOf)
        .filter((ws) => ws.length >= 2)
        .map((ws) => ws.slice(0, 2).join(' ')),
    ),
  ];
  const rotate = <T>(items: readonly T[], offset: number) =>
    items
      .slice(offset % Math.max(1, items.length))
      .concat(items)
      .slice(0, Math.min(perKind, items.length));
  const queries: Array<{ q: string; kind: TitleQueryKind }> = [
    ...rotate(words, 0).map((q) => ({ q, kind: 'word' as const })),
    ...rotate(pairs, 0).map((q) => ({ q, kind: 'two-words' as const })),
    ...rotate([...new Set(titles)], 0).map((q) => ({ q, kind: 'title' as const })),
    ...rotate(long, 3).map((w) => ({
      q: w.slice(0, Math.max(4, w.length - 2)),
      kind: 'prefix' as const,
    })),
    ...rotate(long, 7).map((w) => ({
      q: withTypos(w, next, w.length >= 6 && next() < 0.5 ? 2 : 1, next() < 0.4),
      kind: 'typo' as const,
    })),
    ...rotate(words, 11).map((w) => ({ q: w.slice(0, 3), kind: 'three-letter' as const })),
    ...NONSENSE.slice(0, perKind).map((q) => ({ q, kind: 'nonsense' as const })),
  ];
  const seen = new Set<string>();
  return queries.filter((query) => {
    if (seen.has(query.q)) return false;
    seen.add(query.q);
    return true;
  });
}
