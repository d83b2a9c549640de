// The store search's q at scale: a common word matches tens of thousands of stores, all equally
// relevant. Its page comes from a walk of the most visited stores and must be exactly the page the
// full relevance ranking gives; its total is PostgreSQL's estimate, not a count.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countStores, searchStores } from '../../src/stores/store-search.sql.ts';
import { loadCatalogFixture } from '../support/catalog-fixture.ts';
import { createTestServices, type CatalogTestServices } from '../support/test-services.ts';

let t: CatalogTestServices;

/** more stores named "... Boutique" than the exact-count limit, plus look-alikes that match less well */
const BOUTIQUES = 12_000;

beforeAll(async () => {
  t = await createTestServices({ countStatements: true });
  await loadCatalogFixture(t.services.db.pool, t.services.legacy);
  await t.services.db.pool.query(
    `INSERT INTO stores (domain, name, monthly_visits, revenue_high_usd)
     SELECT 'shop' || i || '.com', (ARRAY['Amber', 'Cedar', 'Nova', 'Pine'])[1 + i % 4] || ' Boutique', (i * 7919) % 50000, i
       FROM generate_series(1, ${BOUTIQUES}) i
     UNION ALL
     SELECT 'lookalike' || i || '.com', 'Boutiques of ' || i, 60000 + i, i FROM generate_series(1, 50) i
     UNION ALL
     SELECT 'waveboutique' || i || '.shop', 'Waveboutique Home', i, i FROM generate_series(1, 30) i`,
  );
  await t.services.db.pool.query('ANALYZE stores');
});
afterAll(() => t?.close());

/** the whole relevance order over every match, computed the plain way */
async function fullRanking(q: string, offset: number, limit: number): Promise<string[]> {
  const { rows } = await t.services.db.pool.query<{ domain: string }>(
    `SELECT s.domain FROM stores s WHERE $1 <% s.name OR $1 <% s.domain
     ORDER BY (s.domain = $1) DESC,
              GREATEST(similarity(s.name, $1), word_similarity($1, s.name), word_similarity($1, s.domain)) DESC,
              s.monthly_visits DESC, s.id
     LIMIT $2 OFFSET $3`,
    [q, limit, offset],
  );
  return rows.map((r) => r.domain);
}

describe('store search by a common word', () => {
  it('pages exactly as the full relevance ranking, without ranking every match', async () => {
    for (const [offset, limit] of [[0, 21], [21, 21], [100, 50]] as const) {
      t.counter!.reset();
      const page = await searchStores(t.services.db.pool, { q: 'boutique' }, 'relevance', { offset, limit });
      expect(page.map((s) => s.domain)).toEqual(await fullRanking('boutique', offset, limit));
      // the most visited perfect matches, found by walking stores by visits
      expect(t.counter!.log.some((sql) => /ORDER BY monthly_visits DESC LIMIT/.test(sql))).toBe(true);
    }
  });

  it('puts the perfect matches above the look-alikes even when those have more visits', async () => {
    const page = await searchStores(t.services.db.pool, { q: 'boutique' }, 'relevance', { offset: 0, limit: 10 });
    expect(page.every((s) => s.name.endsWith(' Boutique'))).toBe(true);
  });

  it('reports the estimate as an inexact total instead of counting', async () => {
    const count = await countStores(t.services.db.pool, { q: 'boutique' });
    expect(count.exact).toBe(false);
    expect(count.total).toBeGreaterThan(10_000);
  });

  it('pages a brand that shares most of its trigrams with a common word exactly as the full ranking', async () => {
    for (const [offset, limit] of [[0, 21], [21, 21]] as const) {
      const page = await searchStores(t.services.db.pool, { q: 'waveboutique' }, 'relevance', { offset, limit });
      expect(page.map((s) => s.domain)).toEqual(await fullRanking('waveboutique', offset, limit));
    }
  });

  it('still counts a brand search exactly and ranks it in full', async () => {
    const count = await countStores(t.services.db.pool, { q: 'acme' });
    expect(count).toEqual({ total: 1, exact: true });
    const page = await searchStores(t.services.db.pool, { q: 'shop12.com' }, 'relevance', { offset: 0, limit: 5 });
    expect(page[0]!.domain).toBe('shop12.com');
    expect(page.map((s) => s.domain)).toEqual(await fullRanking('shop12.com', 0, 5));
  });
});
