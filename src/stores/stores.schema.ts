// The stores feature's GraphQL face: importing it registers the feature's types, fields and
// root fields on the builder. A new one is imported here; src/gateway/schema.ts imports the face.
import './store.type.ts';
import './store-legacy.fields.ts';
import './store-metrics.type.ts';
import './store-traffic.type.ts';
import './store-history.fields.ts';
import './store-models.type.ts';
import './store.query.ts';
import './store-search.query.ts';
import './store-groups.query.ts';
import './store-facets.query.ts';
import './store-compare.query.ts';
import './store-lookup.query.ts';
import './store-apps.fields.ts';
