// The app-change filters of the store search (installedApp with installedSince / installedBefore,
// uninstalledApp with uninstalledSince / uninstalledBefore) over HTTP on the known catalog, with
// install periods written by hand below: plain and grouped lists, the facets, the exports, GraphQL's
// StoreFilter, and every refusal. Expected stores come from PERIODS, filtered here in plain
// TypeScript, so each case has an answer that does not come from the code under test.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_APPS, FIXTURE_STORES } from '../support/catalog-fixture.ts';
import { openRestApp, type RestApp } from './support/rest-app.ts';

let rest: RestApp;

interface Period {
  domain: string;
  app: string;
  installed: string;
  uninstalled: string | null;
}

/**
 * klaviyo: acme ran it when first seen, glow dropped it and installed it again, bella and berlin
 * installed it, urban-threads dropped it for good; judgeme: acme and glow installed it, dropfast and
 * cozy-nest dropped it (cozy-nest at midnight exactly, to test the bounds). Open periods are the
 * fixture's current installs (store_apps); gorgias has none (a known app no period names).
 */
const PERIODS: Period[] = [
  {
    domain: 'acme-apparel.com',
    app: 'klaviyo',
    installed: '2024-01-10T00:00:00Z',
    uninstalled: null,
  },
  {
    domain: 'glow-skin.com',
    app: 'klaviyo',
    installed: '2025-03-01T12:00:00Z',
    uninstalled: '2025-06-01T09:00:00Z',
  },
  { domain: 'glow-skin.com', app: 'klaviyo', installed: '2025-08-01T00:00:00Z', uninstalled: null },
  {
    domain: 'bella-beauty.co.uk',
    app: 'klaviyo',
    installed: '2025-05-05T08:30:00Z',
    uninstalled: null,
  },
  {
    domain: 'berlin-boots.de',
    app: 'klaviyo',
    installed: '2025-01-31T23:00:00Z',
    uninstalled: null,
  },
  {
    domain: 'urban-threads.com',
    app: 'klaviyo',
    installed: '2024-12-01T00:00:00Z',
    uninstalled: '2025-01-15T00:00:00Z',
  },
  {
    domain: 'acme-apparel.com',
    app: 'judgeme',
    installed: '2025-02-01T00:00:00Z',
    uninstalled: null,
  },
  { domain: 'glow-skin.com', app: 'judgeme', installed: '2025-02-10T00:00:00Z', uninstalled: null },
  {
    domain: 'dropfast.shop',
    app: 'judgeme',
    installed: '2025-01-20T00:00:00Z',
    uninstalled: '2025-03-09T18:00:00Z',
  },
  {
    domain: 'cozy-nest.com',
    app: 'judgeme',
    installed: '2024-06-01T00:00:00Z',
    uninstalled: '2025-03-10T00:00:00Z',
  },
];

beforeAll(async () => {
  rest = await openRestApp({ fixture: true });
  await rest.services.db.pool.query(
    `INSERT INTO store_app_periods (store_id, app_id, installed_at, uninstalled_at, seen_installing)
     SELECT s.id, a.id, x.installed, x.uninstalled, x.installed > s.first_seen_at
       FROM jsonb_to_recordset($1::jsonb) AS x(domain text, app text, installed timestamptz, uninstalled timestamptz)
       JOIN stores s ON s.domain = x.domain JOIN apps a ON a.slug = x.app`,
    [JSON.stringify(PERIODS)],
  );
});
afterAll(() => rest?.close());

const at = (value: string) => new Date(/T/.test(value) ? value : `${value}T00:00:00Z`).getTime();
const inWindow = (moment: string | null, since?: string, before?: string) =>
  moment !== null &&
  (since === undefined || at(moment) >= at(since)) &&
  (before === undefined || at(moment) < at(before));
const runs = (domain: string, slug: string) =>
  FIXTURE_APPS.find((app) => app.slug === slug)!.installs.includes(domain);

/** the stores a query keeps, by the periods above and the fixture's store_apps */
function expected(q: Record<string, string>): string[] {
  return FIXTURE_STORES.filter((store) => {
    const periods = PERIODS.filter((p) => p.domain === store.domain);
    if (
      q.installedApp !== undefined &&
      !periods.some(
        (p) =>
          p.app === q.installedApp && inWindow(p.installed, q.installedSince, q.installedBefore),
      )
    )
      return false;
    if (
      q.uninstalledApp !== undefined &&
      !periods.some(
        (p) =>
          p.app === q.uninstalledApp &&
          inWindow(p.uninstalled, q.uninstalledSince, q.uninstalledBefore),
      )
    )
      return false;
    if (q.app !== undefined && !runs(store.domain, q.app)) return false;
    if (q.countryCode !== undefined && store.countryCode !== q.countryCode) return false;
    return true;
  })
    .map((store) => store.domain)
    .sort();
}

const CASES: Array<Record<string, string>> = [
  { installedApp: 'klaviyo' },
  { installedApp: 'klaviyo', installedSince: '2025-03-01' },
  { installedApp: 'klaviyo', installedSince: '2025-03-01T12:00:00Z' },
  { installedApp: 'klaviyo', installedSince: '2025-03-01T12:00:00.001Z' },
  { installedApp: 'klaviyo', installedBefore: '2025-02-01' },
  { installedApp: 'klaviyo', installedBefore: '2025-01-31T23:00:00Z' },
  { installedApp: 'klaviyo', installedSince: '2025-01-01', installedBefore: '2025-06-01' },
  { installedApp: 'klaviyo', installedSince: '2025-02-01T00:00:00+02:00' },
  { installedApp: 'klaviyo', app: 'klaviyo' },
  { installedApp: 'klaviyo', countryCode: 'US' },
  { installedApp: 'gorgias' },
  { uninstalledApp: 'klaviyo' },
  { uninstalledApp: 'klaviyo', app: 'klaviyo' },
  { uninstalledApp: 'judgeme', uninstalledSince: '2025-03-10' },
  { uninstalledApp: 'judgeme', uninstalledBefore: '2025-03-10' },
  { uninstalledApp: 'judgeme', uninstalledSince: '2025-03-01', uninstalledBefore: '2025-03-10' },
  { installedApp: 'judgeme', uninstalledApp: 'klaviyo' },
  { installedApp: 'judgeme', installedSince: '2025-02-05', uninstalledApp: 'klaviyo' },
];

const url = (path: string, q: Record<string, string>) =>
  `${path}?${new URLSearchParams(q).toString()}`;
const domains = (data: Array<{ domain: string }>) => data.map((s) => s.domain).sort();

describe('GET /v1/stores: installedApp and uninstalledApp', () => {
  it('the worked cases by hand: bounds are observation moments, since inclusive, before exclusive', () => {
    // pencil and paper, before the machine: these pin expected() itself
    expect(expected({ installedApp: 'klaviyo' })).toEqual([
      'acme-apparel.com',
      'bella-beauty.co.uk',
      'berlin-boots.de',
      'glow-skin.com',
      'urban-threads.com',
    ]);
    expect(expected({ installedApp: 'klaviyo', installedBefore: '2025-01-31T23:00:00Z' })).toEqual([
      'acme-apparel.com',
      'urban-threads.com',
    ]);
    expect(expected({ uninstalledApp: 'judgeme', uninstalledSince: '2025-03-10' })).toEqual([
      'cozy-nest.com',
    ]);
    expect(expected({ uninstalledApp: 'klaviyo', app: 'klaviyo' })).toEqual(['glow-skin.com']);
  });

  it('lists exactly the stores with a matching period, each once, with an exact total', async () => {
    for (const q of CASES) {
      const res = await rest.get(url('/v1/stores', { ...q, limit: '100' }));
      expect(res.status, JSON.stringify(q)).toBe(200);
      expect(domains(res.body.data), JSON.stringify(q)).toEqual(expected(q));
      expect(res.body.page.total, JSON.stringify(q)).toBe(expected(q).length);
      expect(res.body.meta, JSON.stringify(q)).toBeUndefined();
    }
  });

  it('pages a filtered list: total counts stores, not periods', async () => {
    // glow-skin.com has two klaviyo periods; it is one store of five
    const first = await rest.get('/v1/stores?installedApp=klaviyo&sort=visits&limit=3');
    const second = await rest.get('/v1/stores?installedApp=klaviyo&sort=visits&limit=3&offset=3');
    expect(first.body.page).toEqual({ limit: 3, offset: 0, count: 3, hasMore: true, total: 5 });
    expect(second.body.page).toEqual({ limit: 3, offset: 3, count: 2, hasMore: false, total: 5 });
    expect(domains([...first.body.data, ...second.body.data])).toEqual(
      expected({ installedApp: 'klaviyo' }),
    );
  });

  it('rolls the matching stores up by country', async () => {
    for (const q of CASES) {
      const counts: Record<string, number> = {};
      for (const domain of expected(q)) {
        const country = FIXTURE_STORES.find((s) => s.domain === domain)!.countryCode;
        counts[country] = (counts[country] ?? 0) + 1;
      }
      const res = await rest.get(url('/v1/stores', { ...q, groupBy: 'country' }));
      expect(res.status, JSON.stringify(q)).toBe(200);
      expect(res.body.meta.mode).toBe('grouped');
      const rows = Object.fromEntries(
        res.body.data.map((row: { key: string; stores: number }) => [row.key, row.stores]),
      );
      expect(rows, JSON.stringify(q)).toEqual(counts);
    }
  });

  it('counts the facets among the matching stores', async () => {
    for (const q of CASES) {
      const res = await rest.get(url('/v1/stores/facets', q));
      expect(res.status, JSON.stringify(q)).toBe(200);
      const kept = expected(q);
      expect(res.body.stores, JSON.stringify(q)).toBe(kept.length);
      const countries: Record<string, number> = {};
      for (const domain of kept) {
        const country = FIXTURE_STORES.find((s) => s.domain === domain)!.countryCode;
        countries[country] = (countries[country] ?? 0) + 1;
      }
      expect(
        Object.fromEntries(
          res.body.facets.countryCode.map((v: { value: string; stores: number }) => [
            v.value,
            v.stores,
          ]),
        ),
        JSON.stringify(q),
      ).toEqual(countries);
    }
  });

  it('exports the matching stores as CSV and NDJSON', async () => {
    const q = { uninstalledApp: 'klaviyo' };
    const csv = await rest.get(url('/v1/stores', { ...q, format: 'csv' }));
    expect(csv.status).toBe(200);
    expect(csv.headers['x-export-total']).toBe(String(expected(q).length));
    const lines = csv.text.trimEnd().split(/\r?\n/);
    const column = lines[0]!.split(',').indexOf('domain');
    expect(
      lines
        .slice(1, -1)
        .map((line) => line.split(',')[column])
        .sort(),
    ).toEqual(expected(q));
    const ndjson = await rest.get(url('/v1/stores', { ...q, format: 'ndjson' }));
    const items = ndjson.text
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(domains(items.slice(0, -1))).toEqual(expected(q));
    expect(items.at(-1)).toEqual({
      export: { total: expected(q).length, rows: expected(q).length, complete: true },
    });
  });

  it('matches nothing for an app the catalog does not have, and names its nearest slugs', async () => {
    for (const parameter of ['installedApp', 'uninstalledApp']) {
      const res = await rest.get(`/v1/stores?${parameter}=klaviyoo`);
      expect(res.status).toBe(200);
      expect(res.body.page.total).toBe(0);
      expect(res.body.meta.suggestions).toEqual([
        { parameter, value: 'klaviyoo', nearest: ['klaviyo'] },
      ]);
    }
  });

  it('refuses a date bound without its app, a malformed date and an empty window with bad_request naming the parameter', async () => {
    const cases: Array<[string, string, string]> = [
      ['installedSince=2025-01-01', 'installedSince', 'needs installedApp'],
      ['installedBefore=2025-01-01', 'installedBefore', 'needs installedApp'],
      [
        'uninstalledSince=2025-01-01&installedApp=klaviyo',
        'uninstalledSince',
        'needs uninstalledApp',
      ],
      ['uninstalledBefore=2025-01-01', 'uninstalledBefore', 'needs uninstalledApp'],
      ['installedApp=klaviyo&installedSince=2025-13-01', 'installedSince', 'YYYY-MM-DD'],
      ['installedApp=klaviyo&installedSince=2025-02-30', 'installedSince', 'YYYY-MM-DD'],
      ['installedApp=klaviyo&installedSince=2025-02-30T00:00:00Z', 'installedSince', 'ISO 8601'],
      ['installedApp=klaviyo&installedSince=yesterday', 'installedSince', 'YYYY-MM-DD'],
      ['installedApp=klaviyo&installedSince=2025-01-01T10:00', 'installedSince', 'offset'],
      ['uninstalledApp=klaviyo&uninstalledBefore=', 'uninstalledBefore', 'YYYY-MM-DD'],
      [
        'installedApp=klaviyo&installedSince=2025-03-01&installedBefore=2025-03-01',
        'installedBefore',
        'later than installedSince',
      ],
      [
        'uninstalledApp=klaviyo&uninstalledSince=2025-03-01T00:00:00Z&uninstalledBefore=2025-02-28',
        'uninstalledBefore',
        'later than uninstalledSince',
      ],
      ['installedApp=Klaviyo Email', 'installedApp', 'app slug'],
      ['uninstalledApp=klaviyo,judgeme', 'uninstalledApp', 'app slug'],
    ];
    for (const [q, parameter, rule] of cases) {
      for (const path of ['/v1/stores', '/v1/stores/facets']) {
        const res = await rest.get(`${path}?${q}`);
        expect([q, path, res.status]).toEqual([q, path, 400]);
        expect(res.body.error.code, q).toBe('bad_request');
        expect(res.body.error.details.parameter, q).toBe(parameter);
        expect(res.body.error.details.rule, q).toContain(rule);
      }
    }
    const grouped = await rest.get('/v1/stores?installedSince=2025-01-01&groupBy=country');
    expect([grouped.status, grouped.body.error.details.parameter]).toEqual([400, 'installedSince']);
  });
});

/** one GraphQL request over HTTP, as a frontend sends it */
async function graphql(document: string, variables: Record<string, unknown>) {
  const res = await rest.app.inject({
    method: 'POST',
    url: '/graphql',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    payload: { query: document, variables },
  });
  return res.json() as {
    data?: Record<string, any> | null;
    errors?: Array<{ message: string; extensions?: { code?: string } }>;
  };
}
const query = async (document: string, variables: Record<string, unknown>) => {
  const { data, errors } = await graphql(document, variables);
  expect(errors ?? []).toEqual([]);
  return data!;
};
const failure = async (document: string, variables: Record<string, unknown>) => {
  const { errors } = await graphql(document, variables);
  expect(errors).toHaveLength(1);
  return { message: errors![0]!.message, code: errors![0]!.extensions?.code };
};

describe('GraphQL StoreFilter over POST /graphql: installedApp and uninstalledApp', () => {
  const STORES = `query($filter: StoreFilter) { stores(filter: $filter, first: 100) { totalCount edges { node { domain } } } }`;
  const GROUPS = `query($filter: StoreFilter) { storeGroups(filter: $filter, groupBy: COUNTRY_CODE, first: 100) { totalCount edges { node { key stores } } } }`;

  it('filters the store search, the grouped rows and the facets alike', async () => {
    const q = { installedApp: 'klaviyo', installedSince: '2025-02-01T00:00:00+02:00' };
    const { stores } = await query(STORES, { filter: q });
    expect(stores.edges.map((e: { node: { domain: string } }) => e.node.domain).sort()).toEqual(
      expected(q),
    );
    expect(stores.totalCount).toBe(expected(q).length);
    const { storeFacets } = await query(
      `query($filter: StoreFilter) { storeFacets(filter: $filter) { stores } }`,
      { filter: { uninstalledApp: 'judgeme', uninstalledSince: '2025-03-10' } },
    );
    expect(storeFacets.stores).toBe(
      expected({ uninstalledApp: 'judgeme', uninstalledSince: '2025-03-10' }).length,
    );
    const { storeGroups } = await query(GROUPS, {
      filter: { uninstalledApp: 'klaviyo' },
    });
    // glow-skin.com and urban-threads.com dropped it: both in the US
    expect(storeGroups.totalCount).toBe(1);
    expect(storeGroups.edges[0].node).toEqual({ key: 'US', stores: 2 });
  });

  it('refuses a bound without its app, an empty window and a bad date with bad_request', async () => {
    const noApp = await failure(STORES, {
      filter: { uninstalledBefore: '2025-01-01' },
    });
    expect(noApp.code).toBe('bad_request');
    expect(noApp.message).toContain('needs uninstalledApp');
    const empty = await failure(STORES, {
      filter: {
        installedApp: 'klaviyo',
        installedSince: '2025-03-01',
        installedBefore: '2025-02-01',
      },
    });
    expect(empty.code).toBe('bad_request');
    expect(empty.message).toContain('later than installedSince');
    const badDate = await failure(STORES, {
      filter: { installedApp: 'klaviyo', installedSince: 'not a date' },
    });
    expect(badDate.code).toBe('bad_request');
  });
});
