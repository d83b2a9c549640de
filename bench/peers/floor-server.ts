// The hand-written floor (bench only, never shipped): Fastify and one pg.Pool, each route one named
// prepared SELECT of the columns the service's answer carries, shaped into JSON by hand. No GraphQL,
// no access layer, no planning: what the same answer costs served as plainly as it can be. Its SQL is
// written here for the purpose, not recorded from the service.
// PEER_DATABASE_URL, PORT, HOST.
import Fastify from 'fastify';
import pg from 'pg';

const pool = new pg.Pool({
  connectionString: process.env.PEER_DATABASE_URL,
  max: 10,
  application_name: 'bench-floor',
});
const app = Fastify({ logger: false });

const latestTraffic = (store: string) => `(SELECT row_to_json(t) FROM (
    SELECT to_char(tm.month, 'YYYY-MM-DD') AS month, tm.organic_pct, tm.paid_pct, tm.social_pct, tm.direct_pct, tm.referral_pct, tm.source
    FROM traffic_monthly tm WHERE tm.store_id = ${store}.id ORDER BY tm.month DESC LIMIT 1) t) AS latest`;
// a scalar subquery, not EXISTS: over a page PostgreSQL may plan EXISTS as a hash of the whole table
const hasLegacy = (store: string) =>
  `(SELECT true FROM legacy_store_summaries l WHERE l.domain = ${store}.domain) AS legacy`;
const cardColumns = (
  store: string,
) => `${store}.domain, ${store}.monthly_visits, ${store}.revenue_low_usd, ${store}.revenue_high_usd,
  ${store}.is_dropshipper, ${store}.service_rating, ${store}.service_grade, ${store}.vertical, ${store}.country_code,
  ${latestTraffic(store)}, ${hasLegacy(store)}`;

const CARD = {
  name: 'floor-card',
  text: `SELECT ${cardColumns('s')} FROM stores s WHERE s.domain = $1`,
};
const CARD_COLUMNS = {
  name: 'floor-card-columns',
  text: `SELECT s.domain, s.monthly_visits, s.revenue_low_usd, s.revenue_high_usd, s.is_dropshipper, s.service_rating,
    s.service_grade, s.vertical, s.country_code FROM stores s WHERE s.domain = $1`,
};
const PROFILE = {
  name: 'floor-profile',
  text: `SELECT s.*, ${latestTraffic('s')},
    (SELECT doc FROM legacy_store_summaries l WHERE l.domain = s.domain) AS legacy,
    (SELECT coalesce(json_agg(json_build_object('slug', a.slug, 'name', a.name, 'developer', a.developer, 'category', a.category,
        'pricing', a.pricing, 'rating', a.rating, 'reviewCount', a.review_count, 'appStoreUrl', a.app_store_url,
        'installCount', a.install_count) ORDER BY a.install_count DESC, a.name), '[]'::json)
      FROM store_apps sa JOIN apps a ON a.id = sa.app_id WHERE sa.store_id = s.id) AS apps,
    (SELECT row_to_json(o) FROM (SELECT presence, presence_since, last_observed_at, next_at, interval_hours, change_rate,
        consecutive_failures, failure_kind, failure_reason, moved_to FROM observation_schedule WHERE store_id = s.id) o) AS observation
    FROM stores s WHERE s.domain = $1`,
};
// the page and its total (exact up to 10,000, as the service's contract) in one statement; the
// per-card subqueries run on the page's rows only
const LIST = {
  name: 'floor-list',
  text: `SELECT (SELECT count(*) FROM (SELECT 1 FROM stores s WHERE lower(s.vertical) = lower($1) LIMIT 10001) c)::int AS total,
      ${cardColumns('page')}
    FROM (SELECT 1) one LEFT JOIN (
      SELECT s.id, s.domain, s.monthly_visits, s.revenue_low_usd, s.revenue_high_usd, s.is_dropshipper, s.service_rating,
        s.service_grade, s.vertical, s.country_code
      FROM stores s WHERE lower(s.vertical) = lower($1)
      ORDER BY s.monthly_visits DESC, s.id LIMIT $2 OFFSET $3) page ON true
    ORDER BY page.monthly_visits DESC, page.id`,
};
// the page alone, no total
const LIST_PAGE = {
  name: 'floor-list-page',
  text: `SELECT ${cardColumns('page')} FROM (
      SELECT s.id, s.domain, s.monthly_visits, s.revenue_low_usd, s.revenue_high_usd, s.is_dropshipper, s.service_rating,
        s.service_grade, s.vertical, s.country_code
      FROM stores s WHERE lower(s.vertical) = lower($1)
      ORDER BY s.monthly_visits DESC, s.id LIMIT $2 OFFSET $3) page
    ORDER BY page.monthly_visits DESC, page.id`,
};
// a country's page in the default order (revenue, then visits, then id), no total
const COUNTRY_PAGE = {
  name: 'floor-country-page',
  text: `SELECT ${cardColumns('page')} FROM (
      SELECT s.id, s.domain, s.monthly_visits, s.revenue_low_usd, s.revenue_high_usd, s.is_dropshipper, s.service_rating,
        s.service_grade, s.vertical, s.country_code
      FROM stores s WHERE s.country_code = upper($1)::bpchar
      ORDER BY s.revenue_high_usd DESC, s.monthly_visits DESC, s.id LIMIT $2 OFFSET $3) page
    ORDER BY page.revenue_high_usd DESC, page.monthly_visits DESC, page.id`,
};
// a store's first products, best-sellers first by rank, then by id
const PRODUCTS = {
  name: 'floor-products',
  text: `SELECT p.handle, p.title, p.price::float8 AS price, p.is_best_seller, p.best_seller_rank
    FROM stores s JOIN products p ON p.store_id = s.id WHERE s.domain = $1
    ORDER BY p.is_best_seller DESC, p.best_seller_rank ASC NULLS LAST, p.id LIMIT $2`,
};

const share = (pct: number) => Math.round(pct * 100) / 10_000;
type Row = Record<string, any>;
const trafficMix = (t: Row | null) =>
  t && {
    month: t.month,
    organic: share(t.organic_pct),
    paid: share(t.paid_pct),
    social: share(t.social_pct),
    direct: share(t.direct_pct),
    referral: share(t.referral_pct),
    source: t.source,
  };
const card = (r: Row) => ({
  domain: r.domain,
  monthlyVisits: r.monthly_visits,
  monthlyRevenueUsd: { low: r.revenue_low_usd, high: r.revenue_high_usd },
  isDropshipper: r.is_dropshipper,
  serviceRating: r.service_rating,
  serviceGrade: r.service_grade,
  vertical: r.vertical,
  countryCode: r.country_code,
  traffic: { latest: trafficMix(r.latest) },
  sources: [
    'postgres:stores',
    ...(r.legacy ? ['postgres:legacy_store_summaries'] : []),
    ...(r.latest ? ['postgres:traffic_monthly'] : []),
  ],
});

app.get<{ Params: { domain: string } }>('/floor/cards/:domain', async (request, reply) => {
  const { rows } = await pool.query({
    ...CARD,
    values: [request.params.domain],
  });
  return rows[0] ? card(rows[0]) : reply.code(404).send({ error: { code: 'not_found' } });
});

app.get<{ Params: { domain: string } }>('/floor/card-columns/:domain', async (request, reply) => {
  const { rows } = await pool.query({ ...CARD_COLUMNS, values: [request.params.domain] });
  const r = rows[0];
  if (!r) return reply.code(404).send({ error: { code: 'not_found' } });
  return {
    domain: r.domain,
    monthlyVisits: r.monthly_visits,
    monthlyRevenueUsd: { low: r.revenue_low_usd, high: r.revenue_high_usd },
    isDropshipper: r.is_dropshipper,
    serviceRating: r.service_rating,
    serviceGrade: r.service_grade,
    vertical: r.vertical,
    countryCode: r.country_code,
  };
});

app.get<{ Params: { domain: string } }>('/floor/stores/:domain', async (request, reply) => {
  const { rows } = await pool.query({
    ...PROFILE,
    values: [request.params.domain],
  });
  const r = rows[0];
  if (!r) return reply.code(404).send({ error: { code: 'not_found' } });
  const { latest, legacy, apps, ...columns } = r;
  return {
    ...columns,
    traffic: { latest: trafficMix(latest) },
    legacy,
    apps,
  };
});

app.get<{ Params: { domain: string } }>('/floor/stores/:domain/products', async (request) => {
  const { rows } = await pool.query({ ...PRODUCTS, values: [request.params.domain, 21] });
  return {
    data: rows.slice(0, 20).map((r) => ({
      handle: r.handle,
      title: r.title,
      price: r.price,
      isBestSeller: r.is_best_seller,
      bestSellerRank: r.best_seller_rank,
    })),
    page: { hasMore: rows.length > 20 },
  };
});

/** ?vertical= in visits order, or ?country= in revenue order (the page alone) */
app.get<{
  Querystring: {
    vertical?: string;
    country?: string;
    limit?: string;
    offset?: string;
    total?: string;
  };
}>('/floor/stores', async (request) => {
  const limit = Number(request.query.limit ?? 20);
  const offset = Number(request.query.offset ?? 0);
  const byCountry = request.query.country !== undefined;
  const withTotal = !byCountry && request.query.total !== 'false';
  const { rows } = await pool.query({
    ...(byCountry ? COUNTRY_PAGE : withTotal ? LIST : LIST_PAGE),
    values: [byCountry ? request.query.country : request.query.vertical, limit + 1, offset],
  });
  const found = rows.filter((r) => r.domain !== null);
  const data = found.slice(0, limit).map(card);
  return {
    data,
    page: {
      limit,
      offset,
      count: data.length,
      hasMore: found.length > limit,
      ...(withTotal ? { total: rows[0]?.total ?? 0 } : {}),
    },
  };
});

await app.listen({
  host: process.env.HOST ?? '127.0.0.1',
  port: Number(process.env.PORT ?? 0),
});
const stop = () =>
  void app
    .close()
    .then(() => pool.end())
    .finally(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
