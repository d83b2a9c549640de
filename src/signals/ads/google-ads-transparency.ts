// Google Ads Transparency Center. Google offers no API for it, so ADS_GOOGLE_BASE_URL names a
// service the operator runs (or buys) that reads the Center and answers its creative data as
// below; ADS_GOOGLE_TOKEN is that service's bearer token.
//
// Request (one per page, at most MAX_PAGES):
//   GET {base}/creatives?domain=<domain>&region=anywhere&last_shown_after=<YYYY-MM-DD, two days ago>[&page_token=<nextPageToken>]
//   Authorization: Bearer <token>
// Response 200 (the Center's fields for each creative of the advertisers verified for that domain):
//   {"creatives": [{"advertiserId": "AR0123…", "advertiserName": "…", "creativeId": "CR0456…",
//                   "format": "TEXT" | "IMAGE" | "VIDEO", "firstShown": "2026-11-01", "lastShown": "2026-11-20",
//                   "headline": "…" | null, "body": "…" | null, "previewUrl": "…" | null, "landingUrl": "…" | null}],
//    "nextPageToken": "…" | null}
// The Center shows no "running" flag; a creative last shown within the last two days (its data
// lags about a day) counts as running, whatever the service returns beyond the filter.
import {
  AdLibraryError,
  libraryDate,
  libraryUrl,
  MAX_PAGES,
  requestJson,
  type AdLibraryAdapter,
  type LibraryCreative,
} from './ad-library.ts';

export const RUNNING_WITHIN_DAYS = 2;

interface GoogleCreative {
  creativeId?: unknown;
  firstShown?: unknown;
  lastShown?: unknown;
  headline?: unknown;
  body?: unknown;
  previewUrl?: unknown;
  landingUrl?: unknown;
}

const text = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : null;

export const googleAdsTransparency: AdLibraryAdapter = {
  network: 'google',
  async search(connection, domain) {
    const since = new Date(
      Date.UTC(
        connection.now.getUTCFullYear(),
        connection.now.getUTCMonth(),
        connection.now.getUTCDate() - RUNNING_WITHIN_DAYS,
      ),
    );
    const creatives: LibraryCreative[] = [];
    let pageToken: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const url = libraryUrl(connection.baseUrl, 'creatives', {
        domain,
        region: 'anywhere',
        last_shown_after: since.toISOString().slice(0, 10),
        page_token: pageToken,
      });
      const answer = (await requestJson(connection, 'google', url)) as {
        creatives?: GoogleCreative[];
        nextPageToken?: string | null;
      };
      if (!answer || !Array.isArray(answer.creatives))
        throw new AdLibraryError(
          'Google Ads Transparency service answered without a creatives list',
        );
      for (const creative of answer.creatives) {
        const id = text(creative.creativeId);
        const lastShown = libraryDate(creative.lastShown);
        if (!id || (lastShown && lastShown < since)) continue;
        creatives.push({
          externalId: id,
          headline: text(creative.headline),
          body: text(creative.body),
          mediaUrl: text(creative.previewUrl),
          landingUrl: text(creative.landingUrl),
          startedAt: libraryDate(creative.firstShown),
        });
      }
      pageToken = text(answer.nextPageToken) ?? undefined;
      if (!pageToken) return { creatives, complete: true };
      if (Date.now() > connection.deadline) break;
    }
    return { creatives, complete: false };
  },
};
