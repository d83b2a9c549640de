// The alerts feature's GraphQL face: importing it registers the feature's types, fields and
// root fields on the builder. A new one is imported here; src/gateway/schema.ts imports the face.
import './alerts.query.ts';
