// What every ad library adapter (Meta, TikTok, Google) returns, and the one HTTP path they share:
// a bearer-authenticated JSON request through the egress client, whose failures become a
// per-network message a caller can act on (never the token, never a stack trace).
import type { Egress } from '../../platform/egress/egress.ts';
import { EgressError } from '../../platform/egress/egress-error.ts';

export const AD_NETWORKS = ['meta', 'tiktok', 'google'] as const;
export type AdNetwork = (typeof AD_NETWORKS)[number];

export const NETWORK_NAMES: Record<AdNetwork, string> = {
  meta: 'Meta Ad Library',
  tiktok: 'TikTok Commercial Content Library',
  google: 'Google Ads Transparency Center',
};

/** One creative as a library reports it, reduced to the columns of `ads`. */
export interface LibraryCreative {
  /** the library's own id of the creative (Meta ad archive id, TikTok ad id, Google creative id) */
  externalId: string;
  headline: string | null;
  body: string | null;
  mediaUrl: string | null;
  landingUrl: string | null;
  /** when the library says the creative was first shown, if it says */
  startedAt: Date | null;
}

export interface LibraryAnswer {
  /** the creatives running now */
  creatives: LibraryCreative[];
  /** false when paging stopped early (page cap or deadline): creatives not listed may still be running */
  complete: boolean;
}

export interface AdLibraryConnection {
  baseUrl: string;
  token: string;
  egress: Egress;
  now: Date;
  /** stop following pages after this instant; what was read so far is kept and marked incomplete */
  deadline: number;
}

export interface AdLibraryAdapter {
  network: AdNetwork;
  /** the running creatives of the store at `domain` */
  search(connection: AdLibraryConnection, domain: string): Promise<LibraryAnswer>;
}

/** Pages read per network and probe at most; the libraries rate-limit hard, and a store with more running creatives is rare. */
export const MAX_PAGES = 5;

/** A library answered, but not with creatives: the message goes into that network's result. */
export class AdLibraryError extends Error {
  override name = 'AdLibraryError';
}

/** `base` + `path` (the base may carry a path prefix such as Meta's API version) with the query appended. */
export function libraryUrl(
  base: string,
  path: string,
  query: Record<string, string | undefined> = {},
): URL {
  const url = new URL(base);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
  for (const [name, value] of Object.entries(query))
    if (value !== undefined) url.searchParams.set(name, value);
  return url;
}

export async function requestJson(
  connection: AdLibraryConnection,
  network: AdNetwork,
  url: URL,
  request: { method: 'GET' } | { method: 'POST'; body: unknown } = { method: 'GET' },
): Promise<unknown> {
  const headers: Record<string, string> = {
    authorization: `Bearer ${connection.token}`,
    accept: 'application/json',
  };
  let body: string | undefined;
  if (request.method === 'POST') {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(request.body);
  }
  let response;
  try {
    response = await connection.egress.fetch(url, { method: request.method, headers, body });
  } catch (error) {
    if (error instanceof EgressError)
      throw new AdLibraryError(
        `${NETWORK_NAMES[network]} unreachable (${error.failure}): ${error.message}`,
      );
    throw error;
  }
  if (response.status < 200 || response.status >= 300) {
    throw new AdLibraryError(
      `${NETWORK_NAMES[network]} answered HTTP ${response.status}${libraryMessage(response.body)}`,
    );
  }
  try {
    return JSON.parse(response.body.toString('utf8'));
  } catch {
    throw new AdLibraryError(`${NETWORK_NAMES[network]} answered with a body that is not JSON`);
  }
}

/** The library's own error message, when its error body carries one (Graph API and TikTok shapes), cut short. */
function libraryMessage(body: Buffer): string {
  try {
    const parsed = JSON.parse(body.toString('utf8')) as { error?: { message?: unknown } };
    const message = parsed.error?.message;
    return typeof message === 'string' && message ? `: ${message.slice(0, 200)}` : '';
  } catch {
    return '';
  }
}

/** First non-empty string of a list the libraries use for creative texts (Meta sends arrays of variants). */
export const firstText = (values: unknown): string | null => {
  const list = Array.isArray(values) ? values : [values];
  const found = list.find((v): v is string => typeof v === 'string' && v.trim() !== '');
  return found ? found.trim() : null;
};

/** A date the library wrote (ISO text such as YYYY-MM-DD, or TikTok's YYYYMMDD number), or null when unreadable. */
export function libraryDate(value: unknown): Date | null {
  if (typeof value === 'number') {
    const text = String(value);
    return /^\d{8}$/.test(text)
      ? libraryDate(`${text.slice(0, 4)}-${text.slice(4, 6)}-${text.slice(6, 8)}`)
      : null;
  }
  if (typeof value !== 'string' || value.trim() === '') return null;
  const date = new Date(value.trim());
  return Number.isNaN(date.getTime()) ? null : date;
}
