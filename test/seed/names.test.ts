import { describe, expect, it } from 'vitest';
import {
  createBrandNamer,
  DOMAIN_ENDINGS,
  HandleSet,
  handleize,
  productTitle,
} from '../../src/seed/names.ts';
import { Random } from '../../src/seed/random.ts';
import { loadReferenceData } from '../../src/seed/reference-data.ts';

const { vocabulary } = loadReferenceData();

describe('store domains', () => {
  const namer = createBrandNamer(vocabulary);

  it('joins brand prefixes and suffixes into distinct cores', () => {
    const cores = new Set<string>();
    for (const p of vocabulary.brandPrefixes)
      for (const s of vocabulary.brandSuffixes) cores.add(p + s);
    expect(cores.size).toBe(vocabulary.brandPrefixes.length * vocabulary.brandSuffixes.length);
    expect(namer.capacity).toBe(cores.size * DOMAIN_ENDINGS.length);
  });

  it('gives every store id its own domain, past the capacity too', () => {
    const seen = new Set<string>();
    const ids = namer.capacity + 20_000;
    for (let id = 1; id <= ids; id++) seen.add(namer.forStore(id).domain);
    expect(seen.size).toBe(ids);
  });

  it('derives the domain from the id alone and writes it as a canonical domain', () => {
    expect(namer.forStore(77)).toEqual(createBrandNamer(vocabulary).forStore(77));
    for (const id of [1, 2, 3, 1000, namer.capacity + 1]) {
      expect(namer.forStore(id).domain).toMatch(/^[a-z0-9]+(-[a-z]+)?\.([a-z]+\.)?example$/);
    }
  });
});

describe('product names', () => {
  it('makes Shopify-style handles', () => {
    expect(handleize('Organic Cotton Crew Tee')).toBe('organic-cotton-crew-tee');
    expect(handleize("Chef's Knife - Black")).toBe('chefs-knife-black');
    expect(handleize('Jigsaw Puzzle 1000 Pieces')).toBe('jigsaw-puzzle-1000-pieces');
    expect(handleize('Crème Brûlée Set')).toBe('creme-brulee-set');
  });

  it('builds each title with the handle of the whole title', () => {
    const rng = new Random(3);
    for (const [slug, words] of Object.entries(vocabulary.verticals)) {
      const nouns = Object.values(vocabulary.categoryNouns).flat();
      for (let i = 0; i < 200; i++) {
        const { title, handle } = productTitle(rng, words, nouns);
        expect(handle, `${slug}: ${title}`).toBe(handleize(title));
      }
    }
  });

  it('keeps handles unique within a store', () => {
    const handles = new HandleSet();
    expect(['crew-tee', 'crew-tee', 'crew-tee', ''].map((h) => handles.claim(h))).toEqual([
      'crew-tee',
      'crew-tee-2',
      'crew-tee-3',
      'product',
    ]);
  });
});

describe('synthetic store domains', () => {
  it('all lie under the reserved .example TLD (RFC 2606), so no request can reach a real store', () => {
    const namer = createBrandNamer({
      brandPrefixes: ['quiet', 'north'],
      brandSuffixes: ['lab', 'wind'],
    });
    const domains = Array.from(
      { length: namer.capacity * 2 },
      (_, i) => namer.forStore(i + 1).domain,
    );
    for (const domain of domains) expect(domain).toMatch(/^[a-z]+\d*[.-][a-z.-]*\.example$/);
    expect(new Set(domains).size).toBe(domains.length);
    expect(domains).toContain('quietlab.store.example');
  });
});
