// The signals feature's GraphQL face: importing it registers the feature's types, fields and
// root fields on the builder. A new one is imported here; src/gateway/schema.ts imports the face.
import './signal.type.ts';
import './signals.query.ts';
import './probes/probe.type.ts';
import './sales/sales.type.ts';
import './insights/insight.type.ts';
import './ads/ads.query.ts';
import './watched-changes/signal-changes.fields.ts';
