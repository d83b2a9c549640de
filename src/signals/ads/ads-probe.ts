// POST /v1/signals/{domain}/ads/probe (Mutation.probeSignalAds): asks every configured ad library
// for the store's running creatives, synchronously (each request has the egress deadline, the
// networks are asked in parallel), and records what it saw:
// - each creative is upserted in `ads` by (network, external id): first_seen_at is the day the
//   library says it was first shown (or now when it does not say), last_seen_at now, active true;
// - a network that answered completely marks the store's creatives it no longer lists inactive
//   (a failed or truncated answer leaves them as they were);
// - creatives new to the service raise one ad_new_campaign insight per network for every watch of
//   the store. On a network's first answer for a store (nothing on record yet) only creatives the
//   library says began in the last NEW_CAMPAIGN_DAYS days count as new campaigns: the others were
//   already running, and flagging a store's whole back catalogue would drown the inbox.
// Each call is an `ads` probe of the caller's watch (signal_probes.kind = 'ads'); a watch may run
// one every ADS_PROBE_COOLDOWN_MS, else rate_limited (429) with Retry-After.
import type pg from 'pg';
import type { GraphqlContext } from '../../graphql/context.ts';
import { ApiError } from '../../platform/errors.ts';
import { ensureMonthPartitions } from '../../platform/database/month-partitions.ts';
import { inTransaction } from '../../platform/database/transaction.ts';
import { findWatch } from '../find-watch.ts';
import type { WatchRecord } from '../watch-record.ts';
import {
  AdLibraryError,
  NETWORK_NAMES,
  type AdNetwork,
  type LibraryAnswer,
  type LibraryCreative,
} from './ad-library.ts';
import { AD_LIBRARIES, adsEgress, librarySetups, type LibrarySetup } from './ad-libraries.ts';

export const ADS_PROBE_COOLDOWN_MS = 5 * 60_000;
export const NEW_CAMPAIGN_DAYS = 7;
export const ADS_PROBE_KIND = 'ads';

export type NetworkProbeStatus = 'ok' | 'not_configured' | 'failed';

export interface NetworkProbeResult {
  network: AdNetwork;
  status: NetworkProbeStatus;
  /** running creatives the library listed (0 unless ok) */
  adsFound: number;
  /** of those, creatives the service had never seen */
  newAds: number;
  /** creatives of this network marked inactive because the library no longer lists them */
  endedAds: number;
  error: string | null;
}

export interface AdsProbeResult {
  domain: string;
  probedAt: Date;
  networks: NetworkProbeResult[];
  /** ad_new_campaign insights written (one per network with new campaigns, per watch of the store) */
  insightsCreated: number;
}

type LibraryOutcome = { setup: LibrarySetup; answer?: LibraryAnswer; error?: string };

export async function probeSignalAds(ctx: GraphqlContext, id: string): Promise<AdsProbeResult> {
  const watch = await findWatch(ctx, id, 'write');
  const { services } = ctx;
  const now = services.clock?.() ?? new Date();
  const probeId = await claimProbe(services.db.pool, watch, now);
  try {
    const outcomes = await askLibraries(ctx, watch.domain, now);
    await ensureMonthPartitions(services.db.pool, now); // the insights it may write are dated now
    const result = await inTransaction(services.db.pool, (client) =>
      recordOutcomes(client, watch, outcomes, now),
    );
    const failures = result.networks.filter((n) => n.status === 'failed');
    const configured = result.networks.filter((n) => n.status !== 'not_configured');
    const failed = configured.length > 0 && failures.length === configured.length;
    await services.db.pool.query(
      `UPDATE signal_probes SET status = $2, error = $3, finished_at = $4 WHERE id = $1`,
      [
        probeId,
        failed ? 'failed' : 'done',
        failures.length ? failures.map((f) => `${f.network}: ${f.error}`).join('; ') : null,
        services.clock?.() ?? new Date(),
      ],
    );
    return { domain: watch.domain, probedAt: now, ...result };
  } catch (error) {
    await services.db.pool
      .query(
        `UPDATE signal_probes SET status = 'failed', error = $2, finished_at = now() WHERE id = $1`,
        [probeId, 'internal error'],
      )
      .catch(() => undefined);
    throw error;
  }
}

/** The cooldown check and the probe's record in one transaction, serialised per watch, so two concurrent calls never both run. */
async function claimProbe(pool: pg.Pool, watch: WatchRecord, now: Date): Promise<number> {
  return inTransaction(pool, async (client) => {
    await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [
      `ads-probe:${watch.id}`,
    ]);
    const {
      rows: [last],
    } = await client.query<{ createdAt: Date }>(
      `SELECT created_at AS "createdAt" FROM signal_probes WHERE signal_id = $1 AND kind = $2 ORDER BY created_at DESC LIMIT 1`,
      [watch.id, ADS_PROBE_KIND],
    );
    const wait = last ? last.createdAt.getTime() + ADS_PROBE_COOLDOWN_MS - now.getTime() : 0;
    if (wait > 0) {
      const retryAfter = Math.ceil(wait / 1000);
      throw new ApiError(
        'rate_limited',
        `The ads of ${watch.domain} were probed less than ${ADS_PROBE_COOLDOWN_MS / 60_000} minutes ago; probe again in ${retryAfter} s.`,
        { domain: watch.domain, cooldownSeconds: ADS_PROBE_COOLDOWN_MS / 1000, retryAfter },
        retryAfter,
      );
    }
    const {
      rows: [probe],
    } = await client.query<{ id: number }>(
      `INSERT INTO signal_probes (signal_id, kind, status, created_at, started_at) VALUES ($1, $2, 'running', $3, $3) RETURNING id`,
      [watch.id, ADS_PROBE_KIND, now],
    );
    return probe!.id;
  });
}

async function askLibraries(
  ctx: GraphqlContext,
  domain: string,
  now: Date,
): Promise<LibraryOutcome[]> {
  const { services } = ctx;
  const egress = adsEgress(services);
  const deadline = Date.now() + services.config.EGRESS_TIMEOUT_MS;
  const log = services.logger.child({ component: 'signals-ads' });
  return Promise.all(
    librarySetups(services.config).map(async (setup): Promise<LibraryOutcome> => {
      if (!setup.configured) return { setup };
      try {
        const answer = await AD_LIBRARIES[setup.network].search(
          { baseUrl: setup.baseUrl, token: setup.token, egress, now, deadline },
          domain,
        );
        return { setup, answer };
      } catch (error) {
        if (!(error instanceof AdLibraryError))
          log.warn(
            { err: error, network: setup.network },
            'ad library adapter failed unexpectedly',
          );
        const message =
          error instanceof AdLibraryError
            ? error.message
            : `${NETWORK_NAMES[setup.network]}: unexpected failure`;
        return { setup, error: message };
      }
    }),
  );
}

async function recordOutcomes(
  client: pg.PoolClient,
  watch: WatchRecord,
  outcomes: LibraryOutcome[],
  now: Date,
): Promise<Omit<AdsProbeResult, 'domain' | 'probedAt'>> {
  const networks: NetworkProbeResult[] = [];
  let insightsCreated = 0;
  for (const { setup, answer, error } of outcomes) {
    const network = setup.network;
    if (!setup.configured) {
      networks.push({
        network,
        status: 'not_configured',
        adsFound: 0,
        newAds: 0,
        endedAds: 0,
        error: `${setup.missing.join(' and ')} not set`,
      });
      continue;
    }
    if (!answer) {
      networks.push({
        network,
        status: 'failed',
        adsFound: 0,
        newAds: 0,
        endedAds: 0,
        error: error ?? 'failed',
      });
      continue;
    }
    const creatives = uniqueCreatives(answer.creatives);
    const {
      rows: [onRecord],
    } = await client.query<{ any: boolean }>(
      'SELECT EXISTS (SELECT 1 FROM ads WHERE store_id = $1 AND network = $2) AS any',
      [watch.storeId, network],
    );
    const upserted = await upsertCreatives(client, watch.storeId, network, creatives, now);
    const ended = answer.complete
      ? await endMissing(client, watch.storeId, network, creatives, now)
      : 0;
    const fresh = upserted.filter((ad) => ad.inserted);
    const campaignSince = now.getTime() - NEW_CAMPAIGN_DAYS * 86_400_000;
    const campaigns = onRecord?.any
      ? fresh
      : fresh.filter((ad) => ad.firstSeenAt.getTime() >= campaignSince);
    if (campaigns.length > 0)
      insightsCreated += await raiseNewCampaign(client, watch, network, campaigns, now);
    networks.push({
      network,
      status: 'ok',
      adsFound: creatives.length,
      newAds: fresh.length,
      endedAds: ended,
      error: null,
    });
  }
  return { networks, insightsCreated };
}

/** A library may list one creative twice (in two pages); the last listing wins. */
function uniqueCreatives(creatives: readonly LibraryCreative[]): LibraryCreative[] {
  return [...new Map(creatives.map((c) => [c.externalId, c])).values()];
}

interface UpsertedAd {
  id: number;
  externalId: string;
  headline: string | null;
  inserted: boolean;
  firstSeenAt: Date;
}

async function upsertCreatives(
  client: pg.PoolClient,
  storeId: number,
  network: AdNetwork,
  creatives: LibraryCreative[],
  now: Date,
): Promise<UpsertedAd[]> {
  if (creatives.length === 0) return [];
  const rows = creatives.map((c) => ({
    external_id: c.externalId,
    headline: c.headline,
    body: c.body,
    media_url: c.mediaUrl,
    landing_url: c.landingUrl,
    started_at: c.startedAt?.toISOString() ?? null,
  }));
  // A creative already attributed to another store (an exact-phrase search can match two stores) stays with it.
  const { rows: upserted } = await client.query<UpsertedAd>(
    `INSERT INTO ads (store_id, network, external_id, headline, body, media_url, landing_url, first_seen_at, last_seen_at, active)
     SELECT $1, $2, x.external_id, x.headline, x.body, x.media_url, x.landing_url, LEAST(coalesce(x.started_at, $3), $3), $3, true
       FROM jsonb_to_recordset($4::jsonb)
         AS x(external_id text, headline text, body text, media_url text, landing_url text, started_at timestamptz)
     ON CONFLICT (network, external_id) DO UPDATE
       SET headline = EXCLUDED.headline, body = EXCLUDED.body, media_url = EXCLUDED.media_url,
           landing_url = EXCLUDED.landing_url, last_seen_at = EXCLUDED.last_seen_at, active = true
       WHERE ads.store_id = EXCLUDED.store_id
     RETURNING id, external_id AS "externalId", headline, (xmax = 0) AS inserted, first_seen_at AS "firstSeenAt"`,
    [storeId, network, now, JSON.stringify(rows)],
  );
  return upserted;
}

async function endMissing(
  client: pg.PoolClient,
  storeId: number,
  network: AdNetwork,
  creatives: LibraryCreative[],
  now: Date,
): Promise<number> {
  const { rowCount } = await client.query(
    `UPDATE ads SET active = false WHERE store_id = $1 AND network = $2 AND active AND last_seen_at < $3 AND NOT (external_id = ANY($4::text[]))`,
    [storeId, network, now, creatives.map((c) => c.externalId)],
  );
  return rowCount ?? 0;
}

async function raiseNewCampaign(
  client: pg.PoolClient,
  watch: WatchRecord,
  network: AdNetwork,
  ads: UpsertedAd[],
  now: Date,
): Promise<number> {
  const n = ads.length;
  const firstShown = new Date(Math.min(...ads.map((a) => a.firstSeenAt.getTime())));
  const headlines = ads
    .map((a) => a.headline)
    .filter((h): h is string => Boolean(h))
    .slice(0, 3);
  const title = `New ${NETWORK_NAMES[network]} campaign on ${watch.domain}`;
  const body =
    `${n} new ad creative${n === 1 ? '' : 's'} running on the ${NETWORK_NAMES[network]}, first shown ${firstShown.toISOString().slice(0, 10)}` +
    (headlines.length ? `: ${headlines.map((h) => `"${h}"`).join(', ')}.` : '.');
  const data = {
    network,
    newAds: n,
    adIds: ads.map((a) => a.id),
    externalIds: ads.map((a) => a.externalId),
    firstShownAt: firstShown.toISOString(),
  };
  const { rowCount } = await client.query(
    `INSERT INTO insights (signal_id, account_id, kind, title, body, data, created_at)
     SELECT w.id, w.account_id, 'ad_new_campaign', $2, $3, $4::jsonb, $5 FROM signals w WHERE w.store_id = $1`,
    [watch.storeId, title, body, JSON.stringify(data), now],
  );
  return rowCount ?? 0;
}
