// fast-check arbitraries for hostile input, and one request arbitrary per REST route built from the
// route's own definition (path template, query schema keys, body schema keys, documented example),
// so routes added to the table later are covered without touching this file. Each generated request
// mixes junk with the route's valid baseline, so some junk reaches deep (a valid domain with a
// poisoned limit) and some is refused at the door.
import fc from 'fast-check';
import type { RestRoute } from '../../../../rest/route.ts';

/** Strings that broke real parsers somewhere: traversal, encodings, control bytes, injections, sizes. */
export const HOSTILE_TEXT = [
  '',
  ' ',
  '..',
  '../',
  '../../etc/passwd',
  '%',
  '%%',
  '%zz',
  '%00',
  '\u0000',
  'a\u0000b',
  '\n',
  '\r\nSet-Cookie: x=1',
  '\t',
  '\u202e',
  '\ufeff',
  '\u200b',
  '😀',
  'ÄÖÜ.de',
  'xn--80ak6aa92e.com',
  'müller.example',
  "' OR 1=1 --",
  '"; DROP TABLE stores; --',
  '_',
  '\\',
  '.*',
  '(a+)+$',
  '[',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a literal JNDI lookup string is the hostile input under test
  '${jndi:ldap://x}',
  '{{7*7}}',
  '<script>alert(1)</script>',
  '{"$gt":""}',
  '__proto__',
  'constructor',
  'https://www.acme-apparel.com/',
  'HTTPS://WWW.ACME-APPAREL.COM',
  'acme-apparel.com.',
  'acme-apparel.com:8080',
  'user:pass@acme-apparel.com',
  'http://127.0.0.1',
  '127.0.0.1',
  '[::1]',
  '169.254.169.254',
  'file:///etc/passwd',
  'javascript:alert(1)',
  'a'.repeat(101),
  'a'.repeat(2049),
  `${'a.'.repeat(200)}com`,
];

/** Text a query string carries where a number is expected. */
export const HOSTILE_NUMBERS = [
  '-1',
  '0',
  '-0',
  '1e3',
  '1E+2',
  '1e-7',
  'NaN',
  'Infinity',
  '-Infinity',
  '0x10',
  '0b11',
  '0o7',
  '1.5',
  '.5',
  '5.',
  '00012',
  ' 5',
  '5 ',
  '+5',
  '1_000',
  '9007199254740993',
  '9'.repeat(400),
  `-${'9'.repeat(400)}`,
  '١٢٣',
  '５',
  'true',
  'null',
  '[]',
];

const unicodeText = fc.string({ unit: 'grapheme', maxLength: 40 });
const anyText = fc.oneof(
  fc.constantFrom(...HOSTILE_TEXT),
  unicodeText,
  fc.string({ maxLength: 300 }),
);
const numberText = fc.oneof(
  fc.constantFrom(...HOSTILE_NUMBERS),
  fc.integer().map(String),
  fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }).map(String),
  fc.double().map(String),
);

/** Values known to exist in the catalog fixture, by path parameter name; others come from the route's example. */
const FIXTURE_VALUES: Record<string, string[]> = {
  domain: ['acme-apparel.com', 'https%3A%2F%2Fwww.acme-apparel.com', 'glow-skin.com'],
  handle: ['classic-hoodie'],
  slug: ['klaviyo'],
  id: ['00000000-0000-4000-8000-000000000000'],
};

function exampleParts(route: RestRoute): { path: string; query: URLSearchParams; body: unknown } {
  const [target = route.path, ...rest] = route.example.split(' ');
  const [path = target, search = ''] = target.split('?');
  const json = rest.join(' ');
  return { path, query: new URLSearchParams(search), body: json ? JSON.parse(json) : undefined };
}

/** The example's value of each {param} of the template, by position. */
function examplePathValues(route: RestRoute): Record<string, string> {
  const template = route.path.split('/');
  const example = exampleParts(route).path.split('/');
  const values: Record<string, string> = {};
  template.forEach((segment, i) => {
    const name = /^\{(\w+)\}$/.exec(segment)?.[1];
    if (name && example[i]) values[name] = example[i]!;
  });
  return values;
}

/** The route's path with each {param} filled from the fixture (or the route's example). */
export function concretePath(route: RestRoute): string {
  const fromExample = examplePathValues(route);
  return route.path.replace(
    /\{(\w+)\}/g,
    (_, name: string) => FIXTURE_VALUES[name]?.[0] ?? fromExample[name] ?? 'x',
  );
}

/** A path segment: a valid value, or hostile text percent-encoded, or raw bytes a client could send. */
function pathSegment(valid: string[]): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 2, arbitrary: fc.constantFrom(...valid) },
    { weight: 3, arbitrary: anyText.map(encodeURIComponent) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '..',
        '.',
        '%',
        '%zz',
        '%2F',
        '%2e%2e%2f',
        '%00',
        '%C0%AE',
        '%ff',
        '~',
        ';x=1',
        'a%20b',
      ),
    },
    { weight: 1, arbitrary: numberText.map(encodeURIComponent) },
  );
}

const queryName = (known: string[]) =>
  fc.oneof(
    { weight: 4, arbitrary: known.length ? fc.constantFrom(...known) : fc.constant('limit') },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '__proto__',
        'constructor',
        'toString',
        'limit[]',
        'limit[0]',
        'a.b',
        '',
        'hasOwnProperty',
        'LIMIT',
        'Limit',
      ),
    },
    { weight: 1, arbitrary: unicodeText },
  );

const queryValue = fc.oneof(
  numberText,
  anyText,
  fc.constantFrom('true', 'false', '2025-01-01', '2025-02-30', '99999-01-01'),
);

export interface GeneratedRequest {
  method: RestRoute['method'];
  url: string;
  /** raw JSON text (or junk), for routes with a body */
  payload?: string;
}

/** The route's baseline body with fields dropped, replaced by junk of any JSON type, or added. */
function mutatedBody(
  shapeKeys: string[],
  baseline: Record<string, unknown>,
): fc.Arbitrary<unknown> {
  const junk = fc.oneof(
    fc.jsonValue({ maxDepth: 3 }),
    anyText,
    fc.constantFrom(-1, 0, 1e308, -1e308, 2 ** 53 + 1, 0.5, true, null, [], {}, [null], {
      $gt: '',
    }),
    fc.array(anyText, { minLength: 11, maxLength: 400 }),
    fc.constant(Array.from({ length: 2_000 }, (_, i) => `shop-${i}.example`)),
  );
  const fieldNames = fc.oneof(
    fc.constantFrom(...(shapeKeys.length ? shapeKeys : ['x'])),
    unicodeText,
    fc.constantFrom('__proto__', 'constructor', 'prototype'),
  );
  return fc
    .record({
      drop: fc.subarray(shapeKeys),
      replace: fc.dictionary(fieldNames, junk, { maxKeys: 4 }),
    })
    .map(({ drop, replace }) => {
      const body: Record<string, unknown> = { ...baseline };
      for (const name of drop) delete body[name];
      for (const [name, value] of Object.entries(replace)) {
        // a literal "__proto__" own key, as JSON.parse would make it (assignment would set the prototype)
        Object.defineProperty(body, name, {
          value,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      return body;
    });
}

function bodyText(route: RestRoute): fc.Arbitrary<string> {
  const shapeKeys = Object.keys(route.body?.shape ?? {});
  const baseline = (exampleParts(route).body ?? {}) as Record<string, unknown>;
  return fc.oneof(
    { weight: 6, arbitrary: mutatedBody(shapeKeys, baseline).map((body) => JSON.stringify(body)) },
    { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((value) => JSON.stringify(value)) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '',
        '{',
        '{"domain":',
        'null',
        '[]',
        '"x"',
        '{"a":1}{"b":2}',
        '{"__proto__":{"admin":true}}',
        '{"constructor":{"prototype":{"x":1}}}',
        '\u0000',
      ),
    },
    // nesting deep enough to hurt a recursive parser, still under the body limit
    {
      weight: 1,
      arbitrary: fc
        .integer({ min: 100, max: 5_000 })
        .map((depth) => `${'['.repeat(depth)}${']'.repeat(depth)}`),
    },
  );
}

/** One hostile request for `route`: its path, query and (for routes with a body) JSON body. */
export function requestFor(route: RestRoute): fc.Arbitrary<GeneratedRequest> {
  const names = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  const fromExample = examplePathValues(route);
  const segments = fc.tuple(
    ...names.map((name) =>
      pathSegment([...(FIXTURE_VALUES[name] ?? []), fromExample[name] ?? 'x']),
    ),
  );
  const known = Object.keys(route.query.shape);
  const baselineQuery = [...exampleParts(route).query.entries()];
  const query = fc.record({
    keepBaseline: fc.boolean(),
    pairs: fc.array(fc.tuple(queryName(known), queryValue), { maxLength: 4 }),
    repeatFirst: fc.boolean(),
  });
  const body = route.body
    ? bodyText(route).map((text) => text as string | undefined)
    : fc.constant(undefined);

  return fc
    .tuple(segments, query, body)
    .map(([values, { keepBaseline, pairs, repeatFirst }, payload]) => {
      let index = 0;
      const path = route.path.replace(/\{\w+\}/g, () => values[index++]!);
      const all = [...(keepBaseline ? baselineQuery : []), ...pairs];
      if (repeatFirst && all[0]) all.push(all[0]);
      const search = all
        .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`)
        .join('&');
      return { method: route.method, url: search ? `${path}?${search}` : path, payload };
    });
}
