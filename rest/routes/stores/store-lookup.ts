// POST /v1/stores/lookup: up to 100 store cards by domain in one call (Query.lookupStores), as JSON
// or, asked for, as a CSV/NDJSON export; the domains come as JSON or as a CSV column.
import { z } from 'zod';
import { LookupStoresDocument } from '../../generated/operations.ts';
import { defineRoute, noPathParams, noQuery, type RestRoute } from '../../route.ts';
import { StoreCard } from '../../shapes.ts';
import { SEEDED } from '../../../src/seed/seeded-catalog.ts';
import { parseDomain } from '../../../src/stores/domain.ts';
import { MAX_LOOKUP } from '../../../src/stores/store-lookup.query.ts';

const countRule = `must list 1 to ${MAX_LOOKUP} domains`;

const domains = z
  .array(z.string({ error: 'each domain must be a string' }), { error: countRule })
  .min(1, { error: countRule })
  .max(MAX_LOOKUP, { error: countRule })
  .superRefine((values, ctx) => {
    // the first malformed domain is named, with its position, before anything runs or is charged
    const bad = values.findIndex((value) => !parseDomain(value).ok);
    if (bad < 0) return;
    const parsed = parseDomain(values[bad]!);
    const rule = parsed.ok ? '' : parsed.rule;
    ctx.addIssue({
      code: 'custom',
      message: `item ${bad + 1} (${JSON.stringify(values[bad]!.slice(0, 100))}) ${rule}`,
    });
  })
  .meta({
    description: `1 to ${MAX_LOOKUP} domains (bare or full URLs). Repeats (after canonicalising: case, scheme, www.) count once, at their first position.`,
    example: [SEEDED.domain, `https://www.${SEEDED.otherDomain}/`],
  });

const MovedDomain = z
  .strictObject({
    requested: z.string().meta({ description: 'The domain asked for (canonical).' }),
    domain: z.string().meta({ description: "The store's domain now." }),
  })
  .meta({ id: 'MovedDomain' });

export const StoreLookupResult = z
  .strictObject({
    data: z.array(StoreCard).meta({
      description:
        'Cards of the stores found, in the order asked, each store once (its first position).',
    }),
    notFound: z
      .array(z.string())
      .meta({ description: 'Canonical domains asked for that are not in the catalog, in order.' }),
    moved: z.array(MovedDomain).meta({
      description:
        'Domains asked for that belong to a store that moved to a new host: its card (in data) carries its new domain.',
    }),
  })
  .meta({ id: 'StoreLookupResult' });

/** One CSV/NDJSON row per different domain asked, in the order asked. */
const LookupRow = z.strictObject({
  requested: z.string().meta({ description: 'The domain asked for (canonical).' }),
  found: z
    .boolean()
    .meta({ description: 'Whether the catalog has it; the card columns are empty when not.' }),
  ...StoreCard.shape,
});

export const lookupStores = defineRoute({
  operationId: 'lookupStores',
  method: 'POST',
  path: '/v1/stores/lookup',
  tag: 'Stores',
  summary: `Look up to ${MAX_LOOKUP} stores by domain`,
  description:
    `Body \`{"domains": [1 to ${MAX_LOOKUP} domains]}\`, or the domains as a \`text/csv\` body: one column, with or ` +
    'without a `domain` header row. Returns `{data: [store cards in the order asked], notFound: [domains not in the ' +
    'catalog], moved: [{requested, domain}]}`; missing domains never make it fail. Domains are canonicalised as ' +
    'everywhere (case, scheme, `www.`); a repeat is answered once, at its first position, and so is a store asked for ' +
    'by its old and its new domain. A store that moved to a new host answers under its old domain too (listed in ' +
    '`moved`). A malformed domain, an empty list, more than 100 domains or an unknown field is a bad_request that ' +
    'charges nothing.\n\n' +
    'Charge: each store found counts as one store lookup (the `storeLookups` bucket, as GET /v1/stores/{domain}); ' +
    'domains not found cost nothing, and the call counts once against the per-minute rate and per-key ceiling. All ' +
    'or nothing: when the bucket cannot pay for every store found the call is rate_limited, answers no card and ' +
    'charges nothing.\n\n' +
    'Export: `format=csv` or `format=ndjson`, or an Accept header preferring `text/csv` or `application/x-ndjson` ' +
    'to JSON (RFC 9110), answers one row per different domain asked, in order: `requested`, `found`, then the card ' +
    'columns (empty when not found; nested fields as dotted names), then the `#export rows=R total=R complete=true` line.',
  document: LookupStoresDocument,
  pathParams: noPathParams,
  query: noQuery,
  body: z.strictObject({ domains }),
  csvBody: 'domains',
  canBeNotFound: false,
  variables: (p) => ({ domains: p.domains }),
  response: StoreLookupResult,
  respond: (data) => {
    const { matches } = data.lookupStores;
    const seen = new Set<string>();
    const cards: z.input<typeof StoreCard>[] = [];
    for (const { store } of matches) {
      if (!store || seen.has(store.domain)) continue;
      seen.add(store.domain);
      cards.push(store);
    }
    return {
      data: cards,
      notFound: matches.filter((m) => !m.store).map((m) => m.requested),
      moved: matches.flatMap((m) =>
        m.store && m.store.domain !== m.requested
          ? [{ requested: m.requested, domain: m.store.domain }]
          : [],
      ),
    };
  },
  answerExport: {
    row: LookupRow,
    // one row per different domain asked, in order: the request's domains, canonical, lead to their cards
    rows: (body, params) => {
      const answer = body as z.output<typeof StoreLookupResult>;
      const byDomain = new Map(answer.data.map((card) => [card.domain, card]));
      const movedTo = new Map(answer.moved.map((m) => [m.requested, m.domain]));
      const asked = new Set(
        (params.domains as string[]).flatMap((value) => {
          const parsed = parseDomain(value);
          return parsed.ok ? [parsed.domain] : [];
        }),
      );
      return [...asked].map((requested) => {
        const card = byDomain.get(movedTo.get(requested) ?? requested);
        return card ? { requested, found: true, ...card } : { requested, found: false };
      });
    },
  },
  example: `/v1/stores/lookup {"domains":["${SEEDED.domain}","https://www.${SEEDED.otherDomain}/","no-such-brand.store.example"]}`,
});

/** The bulk lookup route, in the order docs.md and the OpenAPI description list it. */
export const storeLookupRoutes: readonly RestRoute[] = [lookupStores];
