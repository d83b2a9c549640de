// What a resolver's caller selected below it, so a root field can read only what its selection
// needs (a store card without apps skips the apps aggregate). One level deep, as GraphQL execution
// collects it (@graphql-tools/utils' collectSubFields: fragments, type conditions, @skip/@include).
import { collectSubFields } from '@graphql-tools/utils';
import { getNamedType, isObjectType, type GraphQLResolveInfo } from 'graphql';

export function selectedFieldNames(info: GraphQLResolveInfo): Set<string> {
  const type = getNamedType(info.returnType);
  if (!isObjectType(type)) return new Set();
  // the library takes graphql 17's variable shape and reads `coerced` on graphql 16
  const variables = { coerced: info.variableValues, sources: {} };
  const { fields } = collectSubFields(info.schema, info.fragments, variables, type, [...info.fieldNodes]);
  return new Set([...fields.values()].map((nodes) => nodes[0]!.name.value));
}
