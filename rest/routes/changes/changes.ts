import { z } from 'zod';
import { changeBody } from '../../bodies.ts';
import { toGraphqlEnum } from '../../../src/graphql/enums.ts';
import { ListChangesDocument } from '../../generated/operations.ts';
import { connectionArgs, listEnvelopeOf } from '../../pagination.ts';
import { dateParam, enumParam, paginationParams, textParam } from '../../params.ts';
import { defineRoute, noPathParams, type RestRoute } from '../../route.ts';
import { CHANGE_ENTITIES, ChangeList } from '../../shapes.ts';

export const listChanges = defineRoute({
  operationId: 'listChanges',
  method: 'GET',
  path: '/v1/changes',
  tag: 'Changes',
  summary: 'One feed of product, app and store movements',
  description:
    'Already summarized, newest first. Each entry is a difference between two observations (scrapes), not a ' +
    'complete event stream; an empty page means nothing was observed to change.',
  document: ListChangesDocument,
  pathParams: noPathParams,
  query: z.strictObject({
    entity: enumParam(CHANGE_ENTITIES)
      .optional()
      .meta({ description: 'Only changes of this kind of entity.' }),
    domain: textParam(2048)
      .optional()
      .meta({ description: "Only this store's changes (bare domain or full URL)." }),
    since: dateParam()
      .optional()
      .meta({ description: 'Only changes detected on or after this day (UTC).' }),
    ...paginationParams(),
  }),
  canBeNotFound: false,
  variables: (p) => ({
    filter: { entity: p.entity && toGraphqlEnum(p.entity), domain: p.domain, since: p.since },
    ...connectionArgs(p),
  }),
  response: ChangeList,
  respond: (data, p) => listEnvelopeOf(data.changes, p, changeBody),
  example: '/v1/changes?entity=product&since=2025-01-01',
});

/** The change feed route, in the order docs.md and the OpenAPI description list them. */
export const changeRoutes: readonly RestRoute[] = [listChanges];
