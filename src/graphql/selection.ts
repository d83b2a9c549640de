// What a resolver's caller selected below it, so a root field can read only what its selection
// needs (a store card without apps skips the apps aggregate; a list whose total is not asked for is
// not counted). Collected as GraphQL execution collects it (@graphql-tools/utils' collectSubFields:
// fragments, type conditions, @skip/@include), one level or along a path (edges, node).
//
// A selection without directives is the same for every request of its document (Yoga hands each
// request of a query text the same parsed document), so its names are collected once and kept with
// the document's field nodes; one with @skip or @include is collected for each request's variables.
import { collectSubFields } from '@graphql-tools/utils';
import {
  getNamedType,
  isObjectType,
  Kind,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLOutputType,
  type GraphQLResolveInfo,
  type SelectionSetNode,
} from 'graphql';

interface Collected {
  nodes: readonly FieldNode[];
  returnType: GraphQLOutputType;
  path: string;
  names: ReadonlySet<string>;
}

/** The names selected below a field, by path from it (selectedFieldNames over the field's resolver info). */
export type SelectionAt = (path: readonly string[]) => ReadonlySet<string>;

/** collected selections without directives, by the first of their field nodes (a few per node: paths, merged fields) */
const collected = new WeakMap<FieldNode, Collected[]>();
const MAX_PER_NODE = 8;

/** The field names selected on the resolver's return type, or on the type reached through `path`. */
export function selectedFieldNames(
  info: GraphQLResolveInfo,
  path: readonly string[] = [],
): ReadonlySet<string> {
  const first = info.fieldNodes[0];
  const pathKey = path.join('.');
  const known = first ? collected.get(first) : undefined;
  const hit = known?.find(
    (entry) =>
      entry.returnType === info.returnType &&
      entry.path === pathKey &&
      sameNodes(entry.nodes, info.fieldNodes),
  );
  if (hit) return hit.names;
  const names = collect(info, path);
  if (
    first &&
    (known?.length ?? 0) < MAX_PER_NODE &&
    !info.fieldNodes.some((node) => hasDirectives(node.selectionSet, info.fragments, new Set()))
  ) {
    const entry = {
      nodes: [...info.fieldNodes],
      returnType: info.returnType,
      path: pathKey,
      names,
    };
    if (known) known.push(entry);
    else collected.set(first, [entry]);
  }
  return names;
}

/** The unions seen, by their two sets (each the same set every request of a document). */
const unions = new WeakMap<
  ReadonlySet<string>,
  WeakMap<ReadonlySet<string>, ReadonlySet<string>>
>();

/**
 * The field names selected on a connection's items (its edges' nodes and its nodes together), or
 * below them through `path`, from the connection field's `selectedAt`: the same set each request of
 * a document, as selectedFieldNames.
 */
export function itemFieldNames(
  selectedAt: SelectionAt,
  path: readonly string[] = [],
): ReadonlySet<string> {
  const edges = selectedAt(['edges', 'node', ...path]);
  const nodes = selectedAt(['nodes', ...path]);
  if (nodes.size === 0) return edges;
  if (edges.size === 0) return nodes;
  let byNodes = unions.get(edges);
  if (!byNodes) unions.set(edges, (byNodes = new WeakMap()));
  let union = byNodes.get(nodes);
  if (!union) byNodes.set(nodes, (union = new Set([...edges, ...nodes])));
  return union;
}

/** itemFieldNames of the connection field whose resolver has `info`. */
export const selectedItemFieldNames = (
  info: GraphQLResolveInfo,
  path: readonly string[] = [],
): ReadonlySet<string> => itemFieldNames((at) => selectedFieldNames(info, at), path);

function collect(info: GraphQLResolveInfo, path: readonly string[]): Set<string> {
  // the library takes graphql 17's variable shape and reads `coerced` on graphql 16
  const variables = { coerced: info.variableValues, sources: {} };
  let type = getNamedType(info.returnType);
  let nodes: FieldNode[] = [...info.fieldNodes];
  for (let depth = 0; ; depth++) {
    if (!isObjectType(type)) return new Set();
    const { fields } = collectSubFields(info.schema, info.fragments, variables, type, nodes);
    if (depth === path.length)
      return new Set([...fields.values()].map((selected) => selected[0]!.name.value));
    const step = path[depth]!;
    nodes = [...fields.values()].flat().filter((node) => node.name.value === step);
    const field = type.getFields()[step];
    if (!field || nodes.length === 0) return new Set();
    type = getNamedType(field.type);
  }
}

const sameNodes = (a: readonly FieldNode[], b: readonly FieldNode[]) =>
  a.length === b.length && a.every((node, i) => node === b[i]);

/** Whether any selection below (through fragments) carries a directive: then what is selected may depend on the variables. */
function hasDirectives(
  selectionSet: SelectionSetNode | undefined,
  fragments: Record<string, FragmentDefinitionNode>,
  seen: Set<string>,
): boolean {
  if (!selectionSet) return false;
  for (const selection of selectionSet.selections) {
    if (selection.directives?.length) return true;
    if (selection.kind === Kind.FRAGMENT_SPREAD) {
      const name = selection.name.value;
      if (seen.has(name)) continue;
      seen.add(name);
      const fragment = fragments[name];
      if (
        !fragment ||
        fragment.directives?.length ||
        hasDirectives(fragment.selectionSet, fragments, seen)
      )
        return true;
    } else if (hasDirectives(selection.selectionSet, fragments, seen)) return true;
  }
  return false;
}
