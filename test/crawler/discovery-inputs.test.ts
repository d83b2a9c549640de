// What discovery takes in: the lines of an import file and the links of an observed homepage.
import { describe, expect, it } from 'vitest';
import { importReport } from '../../app/cli/catalog.ts';
import { csvFields, parseImport } from '../../src/crawler/import-file.ts';
import { linkedDomains, MAX_LINKED_DOMAINS } from '../../src/storefront/linked-domains.ts';

describe('import files', () => {
  it('reads one domain or URL a line, canonical, once, skipping comments and blank lines', () => {
    const parsed = parseImport(
      '# stores\nhttps://www.Shop-One.com/collections/all\n\nshop-one.com\nshop-two.co.uk\n  not a domain \nfoo.store.example\n',
    );
    expect(parsed.domains).toEqual(['shop-one.com', 'shop-two.co.uk']);
    expect(parsed.duplicates).toBe(1);
    expect(parsed.invalid).toEqual([
      { line: 6, value: 'not a domain', rule: 'must not contain spaces' },
      {
        line: 7,
        value: 'foo.store.example',
        rule: 'is a synthetic (.example) store, never contacted',
      },
    ]);
  });

  it('reads the domain column of a CSV by its header, with quoted fields', () => {
    const parsed = parseImport(
      '\uFEFFname,Website,country\r\n"Shop, One",https://shop-one.com,US\r\nTwo,shop-two.com,GB\r\n',
    );
    expect(parsed.domains).toEqual(['shop-one.com', 'shop-two.com']);
    expect(csvFields('"a ""b"", c",d')).toEqual(['a "b", c', 'd']);
  });

  it('reads the first column of a CSV without a header', () => {
    expect(parseImport('shop-one.com,US\nshop-two.com,GB\n').domains).toEqual([
      'shop-one.com',
      'shop-two.com',
    ]);
  });

  // headers as Store Leads, BuiltWith and spreadsheets export them: never a bad line, never the wrong column
  it.each([
    ['Store URL\nhttps://shop-one.com\nshop-two.com\n', 'one column named "Store URL"'],
    ['domain\nshop-one.com\nshop-two.com\n', 'one column named "domain"'],
    [
      'Shop Name,Domain Name\nShop One,shop-one.com\nShop Two,shop-two.com\n',
      '"Domain Name" after a name column',
    ],
    [
      'Company, Website \nShop One,https://shop-one.com\nShop Two,shop-two.com\n',
      '" Website " with spaces',
    ],
    [
      'name,STORE URL,country\nShop One,shop-one.com,US\nShop Two,shop-two.com,GB\n',
      '"STORE URL" upper case',
    ],
    [
      'Name,Store_URL\nShop One,shop-one.com\nShop Two,shop-two.com\n',
      '"Store_URL" with an underscore',
    ],
    ['title,url\nShop One,shop-one.com\nShop Two,shop-two.com\n', '"url"'],
    ['  Domain  \nshop-one.com\nshop-two.com\n', 'one column " Domain " with spaces'],
    ['Website\r\nhttps://shop-one.com\r\nshop-two.com\r\n', 'one column "Website", CRLF'],
  ])('reads %j (%s)', (text) => {
    const parsed = parseImport(text);
    expect(parsed.domains).toEqual(['shop-one.com', 'shop-two.com']);
    expect(parsed.invalid).toEqual([]);
  });

  it('prefers the domain column to a URL column when a file has both', () => {
    const parsed = parseImport(
      'Name,Website,Domain\nShop One,https://shop-one.com/about,shop-one.com\nShop Two,,shop-two.com\n',
    );
    expect(parsed.domains).toEqual(['shop-one.com', 'shop-two.com']);
    expect(parsed.invalid).toEqual([]);
  });

  it('still reports a first line that is neither a domain nor a known header', () => {
    const parsed = parseImport('not a domain\nshop-one.com\n');
    expect(parsed.domains).toEqual(['shop-one.com']);
    expect(parsed.invalid).toEqual([
      { line: 1, value: 'not a domain', rule: 'must not contain spaces' },
    ]);
  });
});

describe('the import report on a terminal', () => {
  // ESC (C0), CSI (C1, U+009B), BEL and a carriage return: what a hostile file uses to recolour,
  // retitle or overwrite the operator's terminal
  const hostile = [
    '\u001b]0;pwned\u0007shop.com',
    '\u001b[2J\u001b[31mred',
    '\u009b31mcsi',
    'a\rb',
  ];

  it('shows the control characters of bad lines escaped, never raw', () => {
    const parsed = parseImport(`${hostile.join('\n')}\nshop-one.com\n`);
    expect(parsed.invalid).toHaveLength(4);
    const report = importReport('stores\u001b[5m.csv', parsed, 1, 'test database');
    // biome-ignore lint/suspicious/noControlCharactersInRegex: no raw control character may reach the terminal
    expect(report).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    expect(report).toContain('line 1: "\\u001b]0;pwned\\u0007shop.com"');
    expect(report).toContain('line 3: "\\u009b31mcsi"');
    expect(report).toContain('line 4: "a\\u000db"');
    expect(report.startsWith('stores\\u001b[5m.csv: 1 domains')).toBe(true);
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
    const html = Array.from(
      { length: 50 },
      (_, i) => `<a href="https://shop${i}.com/">${i}</a>`,
    ).join('');
    expect(linkedDomains(html, 'me.com')).toHaveLength(MAX_LINKED_DOMAINS);
  });
});
