// What discovery takes in: the lines of an import file and the links of an observed homepage.
import { describe, expect, it } from 'vitest';
import { csvFields, parseImport } from '../../src/catalog/import-file.ts';
import { linkedDomains, MAX_LINKED_DOMAINS } from '../../src/storefront/linked-domains.ts';

describe('import files', () => {
  it('reads one domain or URL a line, canonical, once, skipping comments and blank lines', () => {
    const parsed = parseImport('# stores\nhttps://www.Shop-One.com/collections/all\n\nshop-one.com\nshop-two.co.uk\n  not a domain \nfoo.store.example\n');
    expect(parsed.domains).toEqual(['shop-one.com', 'shop-two.co.uk']);
    expect(parsed.duplicates).toBe(1);
    expect(parsed.invalid).toEqual([
      { line: 6, value: 'not a domain', rule: 'must not contain spaces' },
      { line: 7, value: 'foo.store.example', rule: 'is a synthetic (.example) store, never contacted' },
    ]);
  });

  it('reads the domain column of a CSV by its header, with quoted fields', () => {
    const parsed = parseImport('\uFEFFname,Website,country\r\n"Shop, One",https://shop-one.com,US\r\nTwo,shop-two.com,GB\r\n');
    expect(parsed.domains).toEqual(['shop-one.com', 'shop-two.com']);
    expect(csvFields('"a ""b"", c",d')).toEqual(['a "b", c', 'd']);
  });

  it('reads the first column of a CSV without a header', () => {
    expect(parseImport('shop-one.com,US\nshop-two.com,GB\n').domains).toEqual(['shop-one.com', 'shop-two.com']);
  });
});

describe('links to other storefronts', () => {
  it('offers the other sites a homepage links to, not itself, social networks, the platform or synthetic names', () => {
    const html = `
      <a href="https://partner-shop.com/products/x">partner</a>
      <a class="x" href='https://www.other-store.co.uk/'>other</a>
      <a href="https://www.instagram.com/me/">ig</a><a href="https://apps.shopify.com/judgeme">app</a>
      <a href="https://me.com/about">self</a><a href="https://www.me.com/">self</a>
      <a href="https://demo.store.example/">seed</a><a href="/relative">relative</a>
      <a href="https://partner-shop.com/">again</a>`;
    expect(linkedDomains(html, 'me.com')).toEqual(['partner-shop.com', 'other-store.co.uk']);
  });

  it(`takes at most ${MAX_LINKED_DOMAINS} from one page`, () => {
    const html = Array.from({ length: 50 }, (_, i) => `<a href="https://shop${i}.com/">${i}</a>`).join('');
    expect(linkedDomains(html, 'me.com')).toHaveLength(MAX_LINKED_DOMAINS);
  });
});
