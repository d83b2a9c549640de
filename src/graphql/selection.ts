// What a resolver's caller selected below it, so a root field can read only what its selection
// needs (a store card without apps skips the apps aggregate). One level deep, through fragments;
// @skip/@include are not evaluated, so a conditionally selected field counts as selected (a read
// too many, never one too few).
import { Kind, type FragmentDefinitionNode, type GraphQLResolveInfo, type SelectionSetNode } from 'graphql';

export function selectedFieldNames(info: Pick<GraphQLResolveInfo, 'fieldNodes' | 'fragments'>): Set<string> {
  const names = new Set<string>();
  const visit = (set: SelectionSetNode | undefined, seen: Set<string>) => {
    for (const selection of set?.selections ?? []) {
      if (selection.kind === Kind.FIELD) names.add(selection.name.value);
      else if (selection.kind === Kind.INLINE_FRAGMENT) visit(selection.selectionSet, seen);
      else if (!seen.has(selection.name.value)) {
        seen.add(selection.name.value);
        const fragment: FragmentDefinitionNode | undefined = info.fragments[selection.name.value];
        visit(fragment?.selectionSet, seen);
      }
    }
  };
  for (const node of info.fieldNodes) visit(node.selectionSet, new Set());
  return names;
}
