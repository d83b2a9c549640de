// Scrape requests in the GraphQL schema: Mutation.requestScrape and requestScrapesBulk (POST
// /v1/scrapes and /v1/scrapes/bulk), Query.scrapeRequest (GET /v1/scrapes/{id}) and recentScrapes,
// and the live status subscriptions scrapeStatus(id) and recentScrapes (for dashboards), fed by
// the shared pub/sub so a subscriber on one replica sees jobs run by any other.
import { decodeGlobalID } from '@pothos/plugin-relay';
import { orNullIfNotFound } from '../graphql/node-lookup.ts';
import { checkCallbackUrl } from '../platform/egress/callback-url.ts';
import { builder } from '../graphql/builder.ts';
import type { GraphqlContext } from '../graphql/context.ts';
import { namedDomainSchema, parseDomain } from '../stores/domain.ts';
import { withRechecks } from '../platform/pubsub/rechecks.ts';
import { RECENT_SCRAPES_CHANNEL, scrapeChannel } from './scrape-events.ts';
import { upperCaseValues } from '../graphql/enums.ts';
import {
  isFinished,
  isOwnedBy,
  SCRAPE_FAILURE_CODES,
  SCRAPE_STATUSES,
  type ScrapeFailureCode,
  type ScrapeRecord,
} from './scrape-record.ts';
import {
  BULK_MAX_URLS,
  findScrape,
  orderScrape,
  orderScrapes,
  recentScrapes,
  RECENT_SCRAPES_MAX,
  type BulkItem,
  type ScrapeOrderResult,
} from './scrape-requests.ts';
import { rules } from '../access/field-rules.ts';

const ScrapeStatusEnum = builder.enumType('ScrapeStatus', {
  description:
    'QUEUED -> VALIDATING -> SCRAPING -> DONE, or FAILED from VALIDATING or SCRAPING. REST spells each in lower case.',
  values: upperCaseValues(SCRAPE_STATUSES, {
    queued: 'Accepted, waiting for a worker.',
    validating: 'Checking that the domain is a reachable storefront of the platform.',
    scraping: 'Reading the storefront (catalog, apps, theme, screenshot).',
    done: 'Finished: the store is readable with Query.store(domain).',
    failed: 'Ended without a result; failureReason says why.',
  }),
});

const FAILURE_CODE_DESCRIPTIONS: Record<ScrapeFailureCode, string> = {
  unresolvable: 'The domain does not resolve (DNS).',
  unreachable: 'Connection refused or reset, TLS not trusted, or no answer in time.',
  refused: 'The address is one the service never fetches (a private address, another scheme).',
  moved: 'The storefront redirects to another host.',
  not_found: 'The homepage or products.json answers 404 or 410.',
  not_shopify: 'The homepage carries no Shopify markers.',
  rate_limited: 'The storefront kept answering 429 (or 503 with Retry-After).',
  server_error: 'The storefront answered another 5xx.',
  http_error: 'The storefront answered another unexpected status.',
  malformed: 'A document that is not what a storefront serves (not JSON, too large, ...).',
  password_protected: 'The store shows its password page (closed to visitors).',
  robots: 'robots.txt disallows a path the scrape needs.',
  synthetic: 'A synthetic store (reserved .example domain): never contacted.',
  internal: 'A fault of the service, or a job that could no longer run; try again later.',
};

const ScrapeFailureCodeEnum = builder.enumType('ScrapeFailureCode', {
  description:
    'Why a scrape request failed, as a code to branch on (failureReason says the same for people). REST shows failureReason alone.',
  values: upperCaseValues(SCRAPE_FAILURE_CODES, FAILURE_CODE_DESCRIPTIONS),
});

export const ScrapeRequestRef = builder.objectRef<ScrapeRecord>('ScrapeRequest');

builder.node(ScrapeRequestRef, {
  description:
    'An on-demand scrape of one store. Readable until 15 minutes after it ends (expiresAt).',
  id: { resolve: (r) => r.id, parse: (id) => id },
  // as Query.scrapeRequest: the caller's own account's requests, within their lifetime
  loadMany: (ids, ctx) =>
    Promise.all(ids.map((id) => orNullIfNotFound(findScrape(ctx.services, id, ctx.accountId)))),
  fields: (t) => ({
    scrapeRequestId: t.exposeString('id', {
      description:
        'The request id (a UUID): what Query.scrapeRequest, Subscription.scrapeStatus and REST GET /v1/scrapes/{id} take (id is the global Node id).',
    }),
    domain: t.exposeString('domain', { description: 'The canonical domain being scraped.' }),
    status: t.field({
      type: ScrapeStatusEnum,
      description: 'Where the request is: queued, validating, scraping, done or failed.',
      resolve: (r) => r.status,
    }),
    force: t.exposeBoolean('force', {
      description: 'True when the request refreshes a store already in the catalog.',
    }),
    callbackUrl: t.exposeString('callbackUrl', {
      nullable: true,
      description: 'The URL notified when the request ends; null when none was given.',
    }),
    failureReason: t.exposeString('failureReason', {
      nullable: true,
      description: 'Why the request failed, for people; null unless status is FAILED.',
    }),
    failureCode: t.field({
      type: ScrapeFailureCodeEnum,
      nullable: true,
      description: 'Why the request failed, as a code; null unless status is FAILED.',
      resolve: (r) => r.failureCode,
    }),
    createdAt: t.expose('createdAt', {
      type: 'DateTime',
      description: 'When the request was made.',
    }),
    updatedAt: t.expose('updatedAt', {
      type: 'DateTime',
      description: 'When the status last changed.',
    }),
    startedAt: t.expose('startedAt', {
      type: 'DateTime',
      nullable: true,
      description: 'When validation began.',
    }),
    finishedAt: t.expose('finishedAt', {
      type: 'DateTime',
      nullable: true,
      description: 'When the request ended (done or failed); null while it runs.',
    }),
    expiresAt: t.expose('expiresAt', {
      type: 'DateTime',
      nullable: true,
      description: 'After this the record is gone (not_found).',
    }),
  }),
});

const OrderOutcomeEnum = builder.enumType('ScrapeOrderOutcome', {
  description:
    'QUEUED: a job was created (REST: HTTP 202). ALREADY_EXISTS: the store is in the catalog and force was not true; no job. REST spells each in lower case.',
  values: upperCaseValues(['queued', 'already_exists'], {
    queued: 'A scrape job was created; follow it by ScrapeOrder.scrape.id.',
    already_exists: 'The store is in the catalog and force was not true: no job was created.',
  }),
});

const ScrapeOrderRef = builder.objectRef<ScrapeOrderResult>('ScrapeOrder').implement({
  description:
    'The answer to requestScrape: whether a job was created and, when it was, the request.',
  fields: (t) => ({
    outcome: t.field({
      type: OrderOutcomeEnum,
      description: 'queued, or already_exists when no job was needed.',
      resolve: (r) => r.outcome,
    }),
    domain: t.exposeString('domain', { description: 'The canonical domain.' }),
    scrape: t.field({
      type: ScrapeRequestRef,
      nullable: true,
      description: 'The new scrape request; null when outcome is already_exists.',
      resolve: (r) => (r.outcome === 'queued' ? r.scrape : null),
    }),
  }),
});

const BulkOutcomeEnum = builder.enumType('BulkScrapeOutcome', {
  description:
    'QUEUED and ALREADY_EXISTS as for one request; DUPLICATE: the same domain earlier in the list; REJECTED: see error. REST spells each in lower case.',
  values: upperCaseValues(['queued', 'already_exists', 'duplicate', 'rejected'], {
    queued: 'A scrape job was created (see scrape).',
    already_exists: 'The store is in the catalog and force was not true: no job.',
    duplicate: 'The same domain came earlier in the list: handled there.',
    rejected: 'The URL was refused (see error); no job.',
  }),
});

const BulkErrorRef = builder
  .objectRef<{ code: string; message: string }>('BulkScrapeError')
  .implement({
    description: 'Why one URL of a bulk request was refused.',
    fields: (t) => ({
      code: t.exposeString('code', {
        description:
          'The error code a single requestScrape would answer, e.g. bad_request or rate_limited.',
      }),
      message: t.exposeString('message', { description: 'What was wrong, in English.' }),
    }),
  });

const BulkItemRef = builder.objectRef<BulkItem>('BulkScrapeItem').implement({
  description: 'The outcome of one URL of requestScrapesBulk.',
  fields: (t) => ({
    url: t.exposeString('url', { description: 'The URL as given.' }),
    domain: t.string({
      nullable: true,
      description: 'The canonical domain the URL names; null when the URL was not valid.',
      resolve: (i) => i.domain,
    }),
    outcome: t.field({
      type: BulkOutcomeEnum,
      description: 'What happened to this URL.',
      resolve: (i) => i.outcome,
    }),
    scrape: t.field({
      type: ScrapeRequestRef,
      nullable: true,
      description: 'The new scrape request; null unless outcome is QUEUED.',
      resolve: (i) => (i.outcome === 'queued' ? i.scrape : null),
    }),
    error: t.field({
      type: BulkErrorRef,
      nullable: true,
      description: 'Why the URL was refused; null unless outcome is rejected.',
      resolve: (i) => (i.outcome === 'rejected' ? i.error : null),
    }),
  }),
});

/** The canonical domain and the name as given, of an argument namedDomainSchema validated. */
function namedDomain(input: string): { domain: string; host: string } {
  const parsed = parseDomain(input);
  if (!parsed.ok) throw new Error(`unvalidated domain argument: ${parsed.rule}`);
  return { domain: parsed.domain, host: parsed.host };
}

const CALLBACK_URL =
  'HTTPS URL that receives scrape.done or scrape.failed once, signed per Standard Webhooks.';

builder.mutationField('requestScrape', (t) =>
  t.field({
    extensions: rules({ quota: 'scrapeRequests' }),
    type: ScrapeOrderRef,
    description:
      'Queue a scrape of a store missing from the catalog, or (force) refresh a known one; a forced re-scrape within 5 minutes is rate_limited.',
    args: {
      domain: t.arg.string({
        required: true,
        description: 'The store to scrape: a domain or a URL.',
        validate: { schema: namedDomainSchema },
      }),
      force: t.arg.boolean({
        defaultValue: false,
        description: 'Scrape even when the store is already in the catalog (a refresh).',
      }),
      callbackUrl: t.arg.string({ description: CALLBACK_URL }),
    },
    resolve: (_root, args, ctx) =>
      orderScrape(ctx.services, {
        ...namedDomain(args.domain),
        force: args.force ?? false,
        callbackUrl: args.callbackUrl ? checkCallbackUrl(ctx.services, args.callbackUrl) : null,
        accountId: ctx.accountId,
      }),
  }),
);

builder.mutationField('requestScrapesBulk', (t) =>
  t.field({
    extensions: rules({ quota: 'scrapeRequests', unitsFrom: 'urls' }),
    type: [BulkItemRef],
    description: `Up to ${BULK_MAX_URLS} URLs, each handled as its own requestScrape; one outcome per URL, in order.`,
    args: {
      urls: t.arg.stringList({
        required: true,
        description: `1 to ${BULK_MAX_URLS} store URLs or domains; each counts as one scrape request.`,
      }),
      force: t.arg.boolean({
        defaultValue: false,
        description: 'Scrape stores already in the catalog too (refreshes).',
      }),
      callbackUrl: t.arg.string({ description: CALLBACK_URL }),
    },
    resolve: (_root, args, ctx) =>
      orderScrapes(ctx.services, args.urls, {
        force: args.force ?? false,
        callbackUrl: args.callbackUrl ? checkCallbackUrl(ctx.services, args.callbackUrl) : null,
        accountId: ctx.accountId,
      }),
  }),
);

/** A request id as given: its UUID, or its global id (ScrapeRequest.id), which names the same request. */
function requestIdOf(id: string | number): string {
  const text = String(id);
  try {
    const { typename, id: raw } = decodeGlobalID(text);
    if (typename === 'ScrapeRequest') return raw;
  } catch {
    // not a global id: a UUID (or nothing findScrape finds)
  }
  return text;
}

builder.queryField('scrapeRequest', (t) =>
  t.field({
    type: ScrapeRequestRef,
    nullable: true,
    description:
      "One scrape request by id, of the caller's own account; not_found 15 minutes after it ended.",
    args: {
      id: t.arg.id({
        required: true,
        description:
          'The request: its UUID (ScrapeRequest.scrapeRequestId) or its global id (ScrapeRequest.id).',
      }),
    },
    resolve: (_root, { id }, ctx) => findScrape(ctx.services, requestIdOf(id), ctx.accountId),
  }),
);

builder.queryField('recentScrapes', (t) =>
  t.field({
    type: [ScrapeRequestRef],
    description:
      "The caller's account's newest scrape requests still within their lifetime, newest first (dashboards).",
    args: {
      limit: t.arg.int({
        defaultValue: 20,
        description: `How many requests, 1 to ${RECENT_SCRAPES_MAX}.`,
        validate: { min: 1, max: RECENT_SCRAPES_MAX },
      }),
    },
    resolve: (_root, { limit }, ctx) => recentScrapes(ctx.services, limit ?? 20, ctx.accountId),
  }),
);

/**
 * The record now, then every change, ending after done or failed. The record is read again when
 * an event may have been lost (withRechecks), so a subscriber always sees the end.
 */
async function* followScrape(ctx: GraphqlContext, id: string): AsyncGenerator<ScrapeRecord> {
  // subscribe before reading, so a change between the read and the subscription is not lost
  const updates = ctx.services.pubsub.asyncIterableIterator<ScrapeRecord>(
    scrapeChannel(id),
  ) as unknown as AsyncIterableIterator<ScrapeRecord>;
  try {
    let current = await findScrape(ctx.services, id, ctx.accountId);
    yield current;
    if (isFinished(current.status)) return;
    const reread = async () => [await findScrape(ctx.services, id, ctx.accountId)];
    for await (const update of withRechecks(updates, ctx.services.pubsub, reread)) {
      // an older event arriving late, or one already seen (a recheck repeats the current state)
      if (
        update.updatedAt < current.updatedAt ||
        (update.updatedAt === current.updatedAt && update.status === current.status)
      )
        continue;
      current = update;
      yield current;
      if (isFinished(current.status)) return;
    }
  } finally {
    await updates.return?.();
  }
}

/**
 * The shared channel carries every account's events; a subscriber receives only its own account's.
 * When events may have been lost, the account's requests changed since the subscription began are
 * read again and those not yet seen in their latest state are sent.
 */
async function* ownScrapeEvents(ctx: GraphqlContext): AsyncGenerator<ScrapeRecord> {
  const events = ctx.services.pubsub.asyncIterableIterator<ScrapeRecord>(
    RECENT_SCRAPES_CHANNEL,
  ) as unknown as AsyncIterableIterator<ScrapeRecord>;
  const since = new Date().toISOString();
  const seen = new Map<string, ScrapeRecord>();
  const reread = async () =>
    (await recentScrapes(ctx.services, RECENT_SCRAPES_MAX, ctx.accountId))
      .filter((r) => r.updatedAt >= since)
      .reverse();
  try {
    for await (const record of withRechecks(events, ctx.services.pubsub, reread)) {
      const last = seen.get(record.id);
      if (!isOwnedBy(record, ctx.accountId)) continue;
      if (
        last &&
        (record.updatedAt < last.updatedAt ||
          (record.updatedAt === last.updatedAt && record.status === last.status))
      )
        continue;
      seen.delete(record.id);
      seen.set(record.id, record);
      // a dashboard's stream lives for hours: remember only the most recently changed requests
      if (seen.size > RECENT_SCRAPES_MAX * 10) seen.delete(seen.keys().next().value!);
      yield record;
    }
  } finally {
    await events.return?.();
  }
}

builder.subscriptionField('scrapeStatus', (t) =>
  t.field({
    type: ScrapeRequestRef,
    description:
      'The status of one scrape request: its current state first, then each change until DONE or FAILED.',
    args: {
      id: t.arg.id({
        required: true,
        description:
          'The request: its UUID (ScrapeRequest.scrapeRequestId) or its global id (ScrapeRequest.id).',
      }),
    },
    subscribe: (_root, { id }, ctx) => followScrape(ctx, requestIdOf(id)),
    resolve: (record) => record,
  }),
);

builder.subscriptionField('recentScrapes', (t) =>
  t.field({
    type: ScrapeRequestRef,
    description:
      "Every status change of the caller's account's scrape requests, as it happens (dashboards).",
    subscribe: (_root, _args, ctx) => ownScrapeEvents(ctx),
    resolve: (record) => record,
  }),
);
