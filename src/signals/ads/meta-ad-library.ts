// Meta Ad Library API (Graph API `ads_archive`). ADS_META_BASE_URL is the Graph API root with its
// version, e.g. https://graph.facebook.com/v21.0; ADS_META_TOKEN an access token with ads_read.
//
// Request (one per page, at most MAX_PAGES):
//   GET {base}/ads_archive?search_terms=<domain>&search_type=KEYWORD_EXACT_PHRASE&ad_type=ALL
//       &ad_active_status=ACTIVE&ad_reached_countries=["ALL"]&limit=100
//       &fields=id,ad_creative_bodies,ad_creative_link_titles,ad_creative_link_captions,ad_delivery_start_time,ad_snapshot_url
//       [&after=<paging.cursors.after of the previous page>]
//   Authorization: Bearer <token>
// Response 200:
//   {"data": [{"id": "1234", "ad_creative_bodies": ["…"], "ad_creative_link_titles": ["…"],
//              "ad_creative_link_captions": ["example.com"], "ad_delivery_start_time": "2026-11-02",
//              "ad_snapshot_url": "https://www.facebook.com/ads/archive/render_ad/?id=1234"}],
//    "paging": {"cursors": {"after": "…"}, "next": "…"}}
// Errors: non-2xx with {"error": {"message", "type", "code"}}.
// The library has no domain filter: the store's domain is searched as an exact phrase, which
// matches the creatives whose text or link caption names it. The next page is asked for with the
// `after` cursor on our own base URL; `paging.next` (a URL the library wrote) is never followed.
import {
  firstText,
  libraryDate,
  libraryUrl,
  MAX_PAGES,
  requestJson,
  AdLibraryError,
  type AdLibraryAdapter,
  type LibraryCreative,
} from './ad-library.ts';

export const META_FIELDS =
  'id,ad_creative_bodies,ad_creative_link_titles,ad_creative_link_captions,ad_delivery_start_time,ad_snapshot_url';

interface MetaAd {
  id?: unknown;
  ad_creative_bodies?: unknown;
  ad_creative_link_titles?: unknown;
  ad_creative_link_captions?: unknown;
  ad_delivery_start_time?: unknown;
  ad_snapshot_url?: unknown;
}

interface MetaPage {
  data?: MetaAd[];
  paging?: { cursors?: { after?: string }; next?: string };
}

export const metaAdLibrary: AdLibraryAdapter = {
  network: 'meta',
  async search(connection, domain) {
    const creatives: LibraryCreative[] = [];
    let after: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const url = libraryUrl(connection.baseUrl, 'ads_archive', {
        search_terms: domain,
        search_type: 'KEYWORD_EXACT_PHRASE',
        ad_type: 'ALL',
        ad_active_status: 'ACTIVE',
        ad_reached_countries: '["ALL"]',
        fields: META_FIELDS,
        limit: '100',
        after,
      });
      const answer = (await requestJson(connection, 'meta', url)) as MetaPage;
      if (!answer || !Array.isArray(answer.data))
        throw new AdLibraryError('Meta Ad Library answered without a data list');
      for (const ad of answer.data) {
        if (typeof ad.id !== 'string' && typeof ad.id !== 'number') continue;
        creatives.push({
          externalId: String(ad.id),
          headline: firstText(ad.ad_creative_link_titles),
          body: firstText(ad.ad_creative_bodies),
          mediaUrl: typeof ad.ad_snapshot_url === 'string' ? ad.ad_snapshot_url : null,
          landingUrl: landingFromCaption(firstText(ad.ad_creative_link_captions)),
          startedAt: libraryDate(ad.ad_delivery_start_time),
        });
      }
      after = answer.paging?.next ? answer.paging.cursors?.after : undefined;
      if (!after) return { creatives, complete: true };
      if (Date.now() > connection.deadline) break;
    }
    return { creatives, complete: false };
  },
};

/** Meta gives the display link (e.g. "EXAMPLE.COM/SALE"), not the landing URL; it is kept as an https URL when it reads as one. */
function landingFromCaption(caption: string | null): string | null {
  if (!caption || /\s/.test(caption)) return null;
  try {
    return new URL(
      /^https?:\/\//i.test(caption) ? caption : `https://${caption.toLowerCase()}`,
    ).toString();
  } catch {
    return null;
  }
}
