// The catalog's GraphQL schema: every feature registers its types on the builder when imported;
// fields are sorted so the printed SDL (schema/schema.graphql) is stable across edits.
import { lexicographicSortSchema } from 'graphql';
import { builder } from './builder.ts';
import './scalars.ts';
import '../stores/store.type.ts';
import '../stores/store-legacy.fields.ts';
import '../stores/store-metrics.type.ts';
import '../stores/store-traffic.type.ts';
import '../stores/store-history.fields.ts';
import '../stores/store-models.type.ts';
import '../stores/store.query.ts';
import '../stores/store-search.query.ts';
import '../stores/store-groups.query.ts';
import '../stores/store-compare.query.ts';
import '../products/product.type.ts';
import '../products/product.query.ts';
import '../products/product-search.query.ts';
import '../apps/app.type.ts';
import '../apps/app.query.ts';
import '../changes/changes.query.ts';
import '../analytics/analytics.query.ts';
import '../access/keys.graphql.ts';
import '../scrapes/scrape.graphql.ts';

export const schema = lexicographicSortSchema(builder.toSchema());
