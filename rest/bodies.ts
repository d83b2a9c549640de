// GraphQL records as /v1 bodies, where the two spell a thing differently: GraphQL's `id` is the
// global Node id and the record's own number or UUID is a named field (changeId, scrapeRequestId,
// ...), which REST shows as `id`; GraphQL's enum values are UPPER_CASE, REST's lower case.
import { fromGraphqlEnum } from '../src/graphql/enums.ts';
import type { ChangeFieldsFragment, ScrapeRequestFieldsFragment } from './generated/operations.ts';

export const changeBody = ({ changeId, ...change }: ChangeFieldsFragment) => ({
  id: changeId,
  ...change,
  entity: fromGraphqlEnum(change.entity),
  changeType: fromGraphqlEnum(change.changeType),
});

export const scrapeBody = ({ scrapeRequestId, ...scrape }: ScrapeRequestFieldsFragment) => ({
  id: scrapeRequestId,
  ...scrape,
  status: fromGraphqlEnum(scrape.status),
});
