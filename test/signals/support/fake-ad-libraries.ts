// Fake ad libraries on loopback, speaking the wire formats the adapters document
// (src/signals/ads/*-ad-library.ts, google-ads-transparency.ts): Meta's Graph API ads_archive,
// TikTok's Commercial Content API ad query and the Google Ads Transparency service. Told apart by
// the Host header (EGRESS_OVERRIDES sends the three public names here). Each network checks the
// bearer token, records every request it gets, pages its creatives `pageSize` at a time and can
// be told to fail (HTTP 500), to hang past the client's deadline, or to answer a library error.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export const HOSTS = {
  meta: 'graph.facebook.test',
  tiktok: 'open.tiktokapis.test',
  google: 'ads-transparency.test',
} as const;
export type FakeNetwork = keyof typeof HOSTS;
export const TOKENS: Record<FakeNetwork, string> = {
  meta: 'meta-token-1',
  tiktok: 'tiktok-token-2',
  google: 'google-token-3',
};

export interface FakeCreative {
  id: string;
  headline?: string;
  body?: string;
  /** YYYY-MM-DD the library says it was first shown */
  firstShown: string;
}

export type FakeBehaviour = 'ok' | 'http_500' | 'hang' | 'library_error';

export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  authorization: string | undefined;
  body: any;
}

export interface FakeAdLibraries {
  /** EGRESS_OVERRIDES value */
  overrides: string;
  /** the ADS_* configuration of all three networks */
  env: Record<string, string>;
  creatives: Record<FakeNetwork, Map<string, FakeCreative[]>>;
  behaviour: Record<FakeNetwork, FakeBehaviour>;
  requests: Record<FakeNetwork, RecordedRequest[]>;
  pageSize: number;
  /** the creatives of `domain` on `network`, replacing what it had */
  set(network: FakeNetwork, domain: string, creatives: FakeCreative[]): void;
  close(): Promise<void>;
}

const compact = (day: string) => Number(day.replaceAll('-', ''));

export async function startFakeAdLibraries(): Promise<FakeAdLibraries> {
  const creatives: FakeAdLibraries['creatives'] = {
    meta: new Map(),
    tiktok: new Map(),
    google: new Map(),
  };
  const behaviour: FakeAdLibraries['behaviour'] = { meta: 'ok', tiktok: 'ok', google: 'ok' };
  const requests: FakeAdLibraries['requests'] = { meta: [], tiktok: [], google: [] };
  const hanging = new Set<http.ServerResponse>();
  const fake = { pageSize: 50 };

  const json = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  /** the page of `list` starting at the offset a cursor carries */
  const pageOf = <T>(list: T[], cursor: string | undefined) => {
    const offset = cursor ? Number(cursor.replace('page-', '')) : 0;
    const next = offset + fake.pageSize;
    return {
      items: list.slice(offset, next),
      next: next < list.length ? `page-${next}` : undefined,
    };
  };

  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? '/', 'http://fake');
    const host = String(req.headers.host ?? '').split(':')[0];
    const network = (Object.keys(HOSTS) as FakeNetwork[]).find((n) => HOSTS[n] === host);
    if (!network) return json(res, 404, { error: { message: `unknown host ${host}` } });
    const text = Buffer.concat(chunks).toString('utf8');
    requests[network].push({
      method: req.method ?? '',
      path: url.pathname,
      query: url.searchParams,
      authorization: req.headers.authorization,
      body: text ? JSON.parse(text) : null,
    });

    if (req.headers.authorization !== `Bearer ${TOKENS[network]}`)
      return json(res, 401, { error: { message: 'Invalid OAuth access token.', code: 190 } });
    if (behaviour[network] === 'hang') {
      hanging.add(res);
      return;
    }
    if (behaviour[network] === 'http_500')
      return json(res, 500, { error: { message: 'An unexpected error has occurred.' } });

    if (network === 'meta') {
      if (url.pathname !== '/v21.0/ads_archive')
        return json(res, 404, { error: { message: 'Unknown path' } });
      if (behaviour.meta === 'library_error')
        return json(res, 400, { error: { message: 'Application request limit reached', code: 4 } });
      const list = creatives.meta.get(url.searchParams.get('search_terms') ?? '') ?? [];
      const page = pageOf(list, url.searchParams.get('after') ?? undefined);
      return json(res, 200, {
        data: page.items.map((c) => ({
          id: c.id,
          ad_creative_bodies: c.body ? [c.body] : undefined,
          ad_creative_link_titles: c.headline ? [c.headline] : undefined,
          ad_creative_link_captions: [url.searchParams.get('search_terms')],
          ad_delivery_start_time: c.firstShown,
          ad_snapshot_url: `https://www.facebook.com/ads/archive/render_ad/?id=${c.id}`,
        })),
        paging: page.next
          ? {
              cursors: { after: page.next },
              next: `https://graph.facebook.test/v21.0/ads_archive?after=${page.next}`,
            }
          : { cursors: {} },
      });
    }
    if (network === 'tiktok') {
      if (req.method !== 'POST' || url.pathname !== '/v2/research/adlib/ad/query/')
        return json(res, 404, { error: { code: 'invalid_params', message: 'unknown' } });
      if (behaviour.tiktok === 'library_error')
        return json(res, 200, {
          data: {},
          error: { code: 'rate_limit_exceeded', message: 'Daily quota reached', log_id: 'x' },
        });
      const body = JSON.parse(text);
      const list = creatives.tiktok.get(body.search_term) ?? [];
      const page = pageOf(list, body.search_id);
      return json(res, 200, {
        data: {
          ads: page.items.map((c) => ({
            ad: {
              id: Number(c.id),
              first_shown_date: compact(c.firstShown),
              last_shown_date: 20991231,
              status: 'active',
              videos: [{ url: `https://v.tiktok.test/${c.id}.mp4` }],
              image_urls: [],
            },
            advertiser: { business_name: 'Fixture' },
          })),
          has_more: Boolean(page.next),
          search_id: page.next ?? '',
        },
        error: { code: 'ok', message: '', log_id: 'log' },
      });
    }
    if (url.pathname !== '/creatives') return json(res, 404, { error: { message: 'unknown' } });
    if (behaviour.google === 'library_error')
      return json(res, 503, { error: { message: 'Transparency Center unavailable' } });
    const list = creatives.google.get(url.searchParams.get('domain') ?? '') ?? [];
    const page = pageOf(list, url.searchParams.get('page_token') ?? undefined);
    return json(res, 200, {
      creatives: page.items.map((c) => ({
        advertiserId: 'AR0001',
        advertiserName: 'Fixture',
        creativeId: c.id,
        format: 'TEXT',
        firstShown: c.firstShown,
        lastShown: new Date().toISOString().slice(0, 10),
        headline: c.headline ?? null,
        body: c.body ?? null,
        previewUrl: `https://tpc.googlesyndication.test/${c.id}`,
        landingUrl: 'https://example.test/landing',
      })),
      nextPageToken: page.next ?? null,
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    overrides: Object.values(HOSTS)
      .map((host) => `${host}=${origin}`)
      .join(','),
    env: {
      ADS_META_BASE_URL: `https://${HOSTS.meta}/v21.0`,
      ADS_META_TOKEN: TOKENS.meta,
      ADS_TIKTOK_BASE_URL: `https://${HOSTS.tiktok}`,
      ADS_TIKTOK_TOKEN: TOKENS.tiktok,
      ADS_GOOGLE_BASE_URL: `https://${HOSTS.google}`,
      ADS_GOOGLE_TOKEN: TOKENS.google,
    },
    creatives,
    behaviour,
    requests,
    get pageSize() {
      return fake.pageSize;
    },
    set pageSize(size: number) {
      fake.pageSize = size;
    },
    set(network, domain, list) {
      creatives[network].set(domain, list);
    },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
