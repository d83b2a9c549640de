// The gateway's schema: each feature's face registers that feature's types on the builder;
// fields are sorted so the printed SDL (schema/schema.graphql) is stable across edits.
import { lexicographicSortSchema } from 'graphql';
import { builder } from '../graphql/builder.ts';
import { stopPagingAtResultWindow, tagListCursors } from '../graphql/pagination.ts';
import '../graphql/scalars.ts';
import '../stores/stores.schema.ts';
import '../crawler/crawler.schema.ts';
import '../products/products.schema.ts';
import '../apps/apps.schema.ts';
import '../change-feed/change-feed.schema.ts';
import '../analytics/analytics.schema.ts';
import '../keys/keys.schema.ts';
import '../scrapes/scrapes.schema.ts';
import '../signals/signals.schema.ts';
import '../alerts/alerts.schema.ts';

export const schema = tagListCursors(
  stopPagingAtResultWindow(lexicographicSortSchema(builder.toSchema())),
);
