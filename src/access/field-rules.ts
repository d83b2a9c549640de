// The access rules a root field (or a node type) declares where it is defined, as GraphQL
// extensions: `extensions: rules({ quota: 'storeSearches' })`. Admission reads them from
// the schema (graphql-charges.ts), REST's OpenAPI description reads the same ones through the
// route's operation, and the response cache reads `cache`. Adding a feature needs no table here.
import type { GraphQLField, GraphQLNamedType } from 'graphql';
import type { KeyScope } from './api-keys.ts';
import type { QuotaBucket } from './plans.ts';

export interface FieldRules {
  /** the account's daily bucket a call counts against (spec part 5.6); absent = only the rate and per-key ceiling */
  quota?: QuotaBucket;
  /** the list argument whose length is the call's units (one scrape per URL); absent = 1 */
  unitsFrom?: string;
  /**
   * the call's units in `quota` are the items it found, charged by its resolver once it knows them
   * (chargeFound, admission.ts); before it runs it counts once against the rate and per-key ceiling only
   */
  unitsFound?: true;
  /** only the web app's service credential may call it (key management) */
  webAppOnly?: true;
  /** only a key carrying this scope may call it (open-dev mode, with no keys at all, may too): internal data such as the crawler's state */
  scope?: KeyScope;
  /** never counted nor refused by a limit (the key's own usage, as GitHub's /rate_limit); a caller still needs a key */
  free?: true;
  /** 'public': the answer depends on the arguments alone, never on the caller, so it may be cached */
  cache?: 'public';
}

const RULES = 'accessRules';

/** Field or type `extensions` declaring these rules. */
export const rules = (declared: FieldRules): Record<string, unknown> => ({ [RULES]: declared });

export const rulesOf = (
  holder: Pick<GraphQLField<unknown, unknown>, 'extensions'> | GraphQLNamedType | undefined | null,
): FieldRules =>
  ((holder?.extensions as Record<string, unknown> | undefined)?.[RULES] as
    | FieldRules
    | undefined) ?? {};
