// The products feature's GraphQL face: importing it registers the feature's types, fields and
// root fields on the builder. A new one is imported here; src/gateway/schema.ts imports the face.
import './product.type.ts';
import './product.query.ts';
import './product-search.query.ts';
