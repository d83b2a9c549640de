// What a resolver's caller selected below it, so a root field can read only what its selection
// needs (a store card without apps skips the apps aggregate; a list whose total is not asked for is
// not counted). Collected as GraphQL execution collects it (@graphql-tools/utils' collectSubFields:
// fragments, type conditions, @skip/@include), one level or along a path (edges, node).
import { collectSubFields } from '@graphql-tools/utils';
import { getNamedType, isObjectType, type FieldNode, type GraphQLResolveInfo } from 'graphql';

/** The field names selected on the resolver's return type, or on the type reached through `path`. */
export function selectedFieldNames(info: GraphQLResolveInfo, path: readonly string[] = []): Set<string> {
  // the library takes graphql 17's variable shape and reads `coerced` on graphql 16
  const variables = { coerced: info.variableValues, sources: {} };
  let type = getNamedType(info.returnType);
  let nodes: FieldNode[] = [...info.fieldNodes];
  for (let depth = 0; ; depth++) {
    if (!isObjectType(type)) return new Set();
    const { fields } = collectSubFields(info.schema, info.fragments, variables, type, nodes);
    if (depth === path.length) return new Set([...fields.values()].map((selected) => selected[0]!.name.value));
    const step = path[depth]!;
    nodes = [...fields.values()].flat().filter((node) => node.name.value === step);
    const field = type.getFields()[step];
    if (!field || nodes.length === 0) return new Set();
    type = getNamedType(field.type);
  }
}
