// Hand-picked bad requests on the real routes (the route table's write routes and /graphql):
// oversized, malformed, empty or non-JSON bodies get bad_request (in the contract's envelope on
// /v1, in GraphQL's errors[].extensions on /graphql) and write nothing; injection attempts in q are searched for literally, never executed and never
// widen a search to everything.
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogRoutes } from '../../../rest/routes/index.ts';
import { BODY_LIMIT_BYTES } from '../../../app/server.ts';
import { concretePath } from './support/arbitraries.ts';
import { startFuzzServer, type FuzzServer } from './support/fuzz-server.ts';

let fuzz: FuzzServer;
beforeAll(async () => {
  fuzz = await startFuzzServer();
});
afterAll(() => fuzz?.close());

const bodyRoutes = catalogRoutes.filter((route) => route.body !== undefined);
/** the write routes, and /graphql, which takes a JSON body too */
const bodyTargets = [
  ...bodyRoutes.map(
    (route) => [`${route.method} ${route.path}`, route.method, concretePath(route)] as const,
  ),
  ['POST /graphql', 'POST', '/graphql'] as const,
];

async function expectRefusedUnwritten(
  request: {
    method: string;
    url: string;
    headers?: Record<string, string>;
    payload?: string | Readable;
  },
  parameter = 'body',
) {
  const before = await fuzz.rowCounts();
  const response = await fuzz.server.app.inject({
    method: request.method as 'POST',
    url: request.url,
    headers: { ...fuzz.headers, ...request.headers },
    payload: request.payload,
  });
  expect(response.statusCode, response.body).toBe(400);
  expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
  const error = errorOf(request.url, response.json());
  expect(error).toMatchObject({
    code: 'bad_request',
    message: expect.any(String),
    details: { parameter },
  });
  expect(await fuzz.rowCounts()).toEqual(before);
  return error;
}

/** /v1 answers the envelope {error}; /graphql answers GraphQL's {errors} with the same code and details in extensions. */
function errorOf(url: string, body: any): { code: string; message: string; details: any } {
  if (url !== '/graphql') {
    expect(Object.keys(body)).toEqual(['error']);
    return body.error;
  }
  expect(Object.keys(body)).toEqual(['errors']);
  expect(body.errors).toHaveLength(1);
  const [{ message, extensions }] = body.errors;
  return { message, code: extensions.code, details: extensions.details };
}

describe('request bodies', () => {
  it('has write routes to test', () => {
    expect(bodyRoutes.map((route) => route.path)).toContain('/v1/scrapes');
  });

  it.each(bodyTargets)(
    '%s: a body over the limit is bad_request (not 413), declared or streamed',
    async (_name, method, url) => {
      const oversized = JSON.stringify({
        domain: 'example.com',
        pad: 'x'.repeat(BODY_LIMIT_BYTES),
      });
      const declared = await expectRefusedUnwritten({
        method,
        url,
        headers: { 'content-type': 'application/json' },
        payload: oversized,
      });
      expect(declared.details.rule).toBe(`at most ${BODY_LIMIT_BYTES} bytes`);
      // no Content-Length: the limit holds while the body streams in
      const streamed = Readable.from([oversized.slice(0, 40_000), oversized.slice(40_000)]);
      await expectRefusedUnwritten({
        method,
        url,
        headers: { 'content-type': 'application/json' },
        payload: streamed,
      });
    },
  );

  it.each(bodyTargets)('%s: malformed JSON is bad_request', async (_name, method, url) => {
    for (const payload of [
      '{"domain": ',
      '{domain: "x"}',
      "{'domain':'x'}",
      '{"domain":"x",}',
      '\u0000',
      'NaN',
    ]) {
      const error = await expectRefusedUnwritten({
        method,
        url,
        headers: { 'content-type': 'application/json' },
        payload,
      });
      expect(error.details.rule).toBe('must be valid JSON');
    }
  });

  it.each(bodyTargets)(
    '%s: a body that is not JSON (text, form, multipart, XML) is bad_request',
    async (_name, method, url) => {
      const bodies: Array<[string, string]> = [
        ['text/plain', '{"domain":"example.com"}'],
        ['application/x-www-form-urlencoded', 'domain=example.com'],
        [
          'multipart/form-data; boundary=x',
          '--x\r\nContent-Disposition: form-data; name="domain"\r\n\r\nexample.com\r\n--x--',
        ],
        ['application/xml', '<domain>example.com</domain>'],
      ];
      for (const [contentType, payload] of bodies) {
        const error = await expectRefusedUnwritten({
          method,
          url,
          headers: { 'content-type': contentType },
          payload,
        });
        expect(error.details.rule).toBe('Content-Type must be application/json');
      }
    },
  );

  it.each(bodyTargets)(
    '%s: an empty body is bad_request, with or without a JSON Content-Type',
    async (_name, method, url) => {
      await expectRefusedUnwritten({
        method,
        url,
        headers: { 'content-type': 'application/json' },
        payload: '',
      });
      const bare = await fuzz.server.app.inject({
        method: method as 'POST',
        url,
        headers: fuzz.headers,
      });
      expect(bare.statusCode, bare.body).toBe(400);
      expect(errorOf(url, bare.json()).code).toBe('bad_request');
    },
  );

  it.each(
    bodyRoutes.map(
      (route) => [`${route.method} ${route.path}`, route.method, concretePath(route)] as const,
    ),
  )(
    '%s: a JSON body that is not an object is bad_request naming the body',
    async (_name, method, url) => {
      for (const payload of [
        'null',
        '[]',
        '[{"domain":"example.com"}]',
        '"example.com"',
        '42',
        'true',
      ]) {
        await expectRefusedUnwritten({
          method,
          url,
          headers: { 'content-type': 'application/json' },
          payload,
        });
      }
    },
  );

  it('refuses prototype-pollution keys in a body without polluting anything', async () => {
    for (const payload of [
      '{"__proto__":{"polluted":true},"domain":"example.com"}',
      '{"constructor":{"prototype":{"polluted":true}},"domain":"example.com"}',
    ]) {
      const response = await fuzz.server.app.inject({
        method: 'POST',
        url: '/v1/scrapes',
        headers: { ...fuzz.headers, 'content-type': 'application/json' },
        payload,
      });
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().error.code).toBe('bad_request');
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    }
  });
});

describe('injection attempts in q', () => {
  const ATTEMPTS = [
    "' OR 1=1 --",
    "' OR ''='",
    '1; DROP TABLE stores; --',
    '%%',
    '%_%',
    '__',
    '\\\\',
    '\\%',
    '.*',
    '(a+)+$',
    '[a-z]+',
    '$1',
    '?? ',
    'a\u0000b',
    '\u0000\u0000',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a literal placeholder is the hostile input under test
    '${1}',
  ];
  const SEARCHES = ['/v1/stores', '/v1/products', '/v1/apps'];

  it.each(SEARCHES)(
    '%s searches q literally: 200 with fewer than all rows, or 400; never a 5xx, nothing dropped',
    async (path) => {
      const everything = await fuzz.server.app.inject({
        method: 'GET',
        url: path === '/v1/products' ? `${path}?priceMin=0&limit=1` : `${path}?limit=1`,
        headers: fuzz.headers,
      });
      expect(everything.statusCode, everything.body).toBe(200);
      const all = everything.json().page.total as number;
      expect(all).toBeGreaterThan(1);
      const before = await fuzz.rowCounts();

      for (const q of ATTEMPTS) {
        const response = await fuzz.server.app.inject({
          method: 'GET',
          url: `${path}?q=${encodeURIComponent(q)}&limit=100`,
          headers: fuzz.headers,
        });
        const label = `${path}?q=${JSON.stringify(q)} -> ${response.statusCode} ${response.body.slice(0, 200)}`;
        expect([200, 400], label).toContain(response.statusCode);
        if (response.statusCode === 200)
          expect(response.json().page.total, label).toBeLessThan(all);
        else expect(response.json().error.code, label).toBe('bad_request');
      }
      expect(await fuzz.rowCounts()).toEqual(before);
    },
  );

  it('refuses a NUL character with bad_request (PostgreSQL cannot hold it) rather than failing', async () => {
    for (const url of ['/v1/stores?q=acme%00', '/v1/apps/%00', '/v1/stores/acme%00.com']) {
      const response = await fuzz.server.app.inject({ method: 'GET', url, headers: fuzz.headers });
      expect(response.statusCode, `${url} ${response.body}`).toBe(400);
      expect(response.json().error.code).toBe('bad_request');
    }
  });
});
