// GET /v1/stores/facets (the store filters' valid values with store counts, under the same filters)
// and meta.suggestions (the nearest valid values of a filter value the catalog does not have), on
// the known catalog. Expected counts come from the fixture itself.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildStoreRollups } from '../../src/stores/rollups/store-rollups.ts';
import { FIXTURE_APPS, FIXTURE_STORES, type FixtureStore } from '../support/catalog-fixture.ts';
import { openRestApp, type RestApp } from './support/rest-app.ts';

let rest: RestApp;
const THEMES: Record<string, string> = {
  'acme-apparel.com': 'Dawn',
  'glow-skin.com': 'Dawn',
  'berlin-boots.de': 'Prestige',
};

beforeAll(async () => {
  rest = await openRestApp({ fixture: true });
  for (const [domain, theme] of Object.entries(THEMES)) {
    await rest.services.db.pool.query(`UPDATE stores SET theme_name = $2 WHERE domain = $1`, [
      domain,
      theme,
    ]);
  }
});
afterAll(() => rest?.close());

/** value → stores over the kept fixture stores, as the facets list them (most stores first, then by value) */
function expected(values: string[]) {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return [...counts]
    .map(([value, stores]) => ({ value, stores }))
    .sort((a, b) => b.stores - a.stores || (a.value < b.value ? -1 : 1));
}

function expectedFacets(kept: FixtureStore[]) {
  const tlds = kept.flatMap((s) => {
    const labels = s.domain.split('.').slice(1);
    return labels.map((_, i) => labels.slice(i).join('.'));
  });
  return {
    stores: kept.length,
    facets: {
      vertical: expected(kept.map((s) => s.vertical)),
      industry: expected(kept.map((s) => s.industry)),
      category: expected(kept.map((s) => s.category)),
      countryCode: expected(kept.map((s) => s.countryCode)),
      theme: expected(kept.flatMap((s) => THEMES[s.domain] ?? [])),
      tld: expected(tlds),
      app: expected(
        kept.flatMap((s) =>
          FIXTURE_APPS.filter((a) => a.installs.includes(s.domain)).map((a) => a.slug),
        ),
      ),
    },
    suggestions: [],
  };
}

describe('GET /v1/stores/facets', () => {
  it('lists every filter value of the catalog with its store count, counted live while no rollup exists', async () => {
    const res = await rest.get('/v1/stores/facets');
    expect(res.status).toBe(200);
    expect(res.body).toEqual(expectedFacets(FIXTURE_STORES));
  });

  it('answers the same from the whole-catalog counts the rollups keep', async () => {
    const client = await rest.services.db.pool.connect();
    try {
      await client.query('BEGIN');
      await buildStoreRollups(client);
      await client.query('COMMIT');
    } finally {
      client.release();
    }
    expect((await rest.get('/v1/stores/facets')).body).toEqual(expectedFacets(FIXTURE_STORES));
  });

  it('counts under the same filters as GET /v1/stores', async () => {
    const cases: Array<[string, (s: FixtureStore) => boolean]> = [
      ['countryCode=GB', (s) => s.countryCode === 'GB'],
      [
        'app=klaviyo&minVisits=50000',
        (s) => FIXTURE_APPS[0]!.installs.includes(s.domain) && s.monthlyVisits >= 50_000,
      ],
      ['tld=uk', (s) => s.domain.endsWith('.uk')],
      ['q=acme', (s) => s.domain === 'acme-apparel.com'],
    ];
    for (const [query, keep] of cases) {
      const res = await rest.get(`/v1/stores/facets?${query}`);
      expect(res.body, query).toEqual(expectedFacets(FIXTURE_STORES.filter(keep)));
    }
  });

  it('lists at most perFacet values per facet, most stores first', async () => {
    const res = await rest.get('/v1/stores/facets?perFacet=1');
    expect(res.body.facets.countryCode).toEqual([{ value: 'US', stores: 5 }]);
    expect((await rest.get('/v1/stores/facets?perFacet=0')).status).toBe(400);
    expect((await rest.get('/v1/stores/facets?limit=5')).status).toBe(400);
  });

  it('names the nearest valid values of a filter value no store has, in the facets and in the empty store list', async () => {
    const facets = await rest.get('/v1/stores/facets?vertical=Aparel&app=klavyo');
    expect(facets.body.stores).toBe(0);
    expect(facets.body.suggestions).toEqual([
      { parameter: 'vertical', value: 'Aparel', nearest: ['Apparel'] },
      { parameter: 'app', value: 'klavyo', nearest: ['klaviyo'] },
    ]);
    const list = await rest.get('/v1/stores?vertical=Aparel');
    expect(list.status).toBe(200);
    expect(list.body.data).toEqual([]);
    expect(list.body.meta).toEqual({
      suggestions: [{ parameter: 'vertical', value: 'Aparel', nearest: ['Apparel'] }],
    });
    const grouped = await rest.get('/v1/stores?industry=Fashun&groupBy=country');
    expect(grouped.body.meta.suggestions).toEqual([
      { parameter: 'industry', value: 'Fashun', nearest: ['Fashion'] },
    ]);
  });

  it('adds no meta to a list whose filter values all exist, whatever their case', async () => {
    const list = await rest.get('/v1/stores?vertical=apparel&tld=co.uk');
    expect(list.body.meta).toBeUndefined();
    expect(list.body.data.length).toBeGreaterThan(0);
  });
});
