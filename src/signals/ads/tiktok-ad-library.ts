// TikTok Commercial Content API, "query ads". ADS_TIKTOK_BASE_URL is the API root,
// e.g. https://open.tiktokapis.com; ADS_TIKTOK_TOKEN a client access token (research.adlib.basic).
//
// Request (one per page, at most MAX_PAGES):
//   POST {base}/v2/research/adlib/ad/query/?fields=ad.id,ad.first_shown_date,ad.last_shown_date,ad.status,ad.videos,ad.image_urls,advertiser.business_name
//   Authorization: Bearer <token>      Content-Type: application/json
//   {"filters": {"ad_published_date_range": {"min": "<YYYYMMDD a year ago>", "max": "<YYYYMMDD today>"},
//                "country_code": "ALL"},
//    "search_term": "<domain, at most 50 characters>", "search_type": "exact_phrase", "max_count": 50,
//    ["search_id": "<search_id of the previous page>"]}
// Response 200:
//   {"data": {"ads": [{"ad": {"id": 104836593772645, "first_shown_date": 20261101, "last_shown_date": 20261120,
//                             "status": "active", "videos": [{"url": "…", "cover_image_url": "…"}], "image_urls": []},
//                      "advertiser": {"business_name": "…"}}],
//             "has_more": true, "search_id": "…"},
//    "error": {"code": "ok", "message": "", "log_id": "…"}}
// An `error.code` other than "ok" is a failure even on HTTP 200. Only ads whose status is active
// count as running. The query endpoint returns no ad text: headline and body stay empty.
import {
  AdLibraryError,
  libraryDate,
  libraryUrl,
  MAX_PAGES,
  requestJson,
  type AdLibraryAdapter,
  type LibraryCreative,
} from './ad-library.ts';

export const TIKTOK_FIELDS =
  'ad.id,ad.first_shown_date,ad.last_shown_date,ad.status,ad.videos,ad.image_urls,advertiser.business_name';
/** the library's longest search term */
const MAX_SEARCH_TERM = 50;
const LOOKBACK_DAYS = 365;

interface TikTokAd {
  ad?: {
    id?: unknown;
    first_shown_date?: unknown;
    status?: unknown;
    videos?: Array<{ url?: unknown; cover_image_url?: unknown }>;
    image_urls?: unknown;
  };
}

interface TikTokAnswer {
  data?: { ads?: TikTokAd[]; has_more?: boolean; search_id?: string };
  error?: { code?: string; message?: string };
}

const yyyymmdd = (at: Date) => at.toISOString().slice(0, 10).replaceAll('-', '');

export const tiktokAdLibrary: AdLibraryAdapter = {
  network: 'tiktok',
  async search(connection, domain) {
    const url = libraryUrl(connection.baseUrl, 'v2/research/adlib/ad/query/', {
      fields: TIKTOK_FIELDS,
    });
    const filters = {
      ad_published_date_range: {
        min: yyyymmdd(new Date(connection.now.getTime() - LOOKBACK_DAYS * 86_400_000)),
        max: yyyymmdd(connection.now),
      },
      country_code: 'ALL',
    };
    const creatives: LibraryCreative[] = [];
    let searchId: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const body = {
        filters,
        search_term: domain.slice(0, MAX_SEARCH_TERM),
        search_type: 'exact_phrase',
        max_count: 50,
        ...(searchId ? { search_id: searchId } : {}),
      };
      const answer = (await requestJson(connection, 'tiktok', url, {
        method: 'POST',
        body,
      })) as TikTokAnswer;
      if (answer?.error?.code && answer.error.code !== 'ok') {
        throw new AdLibraryError(
          `TikTok Commercial Content Library error ${answer.error.code}: ${String(answer.error.message ?? '').slice(0, 200)}`,
        );
      }
      const ads = answer?.data?.ads;
      if (!Array.isArray(ads))
        throw new AdLibraryError('TikTok Commercial Content Library answered without data.ads');
      for (const { ad } of ads) {
        if (!ad || (typeof ad.id !== 'string' && typeof ad.id !== 'number')) continue;
        if (String(ad.status ?? '').toLowerCase() !== 'active') continue;
        const video = Array.isArray(ad.videos) ? ad.videos[0] : undefined;
        const image = Array.isArray(ad.image_urls)
          ? ad.image_urls.find((u): u is string => typeof u === 'string')
          : undefined;
        creatives.push({
          externalId: String(ad.id),
          headline: null,
          body: null,
          mediaUrl: typeof video?.url === 'string' ? video.url : (image ?? null),
          landingUrl: null,
          startedAt: libraryDate(ad.first_shown_date),
        });
      }
      searchId = answer.data?.has_more ? answer.data.search_id : undefined;
      if (!searchId) return { creatives, complete: true };
      if (Date.now() > connection.deadline) break;
    }
    return { creatives, complete: false };
  },
};
