// What a GraphQL operation costs, read from its document (with its coerced variables) before it
// runs: each root field that executes counts as one request in its bucket (fields GraphQL merges,
// same response name, execute once and count once), as the REST route over the same field does (a query with three
// root fields costs what three REST calls cost). `node`/`nodes` count one lookup per id, in the
// bucket its type declares. Buckets, units and the web-app-only rule are declared on the fields
// (field-rules.ts). Introspection is free, and so is a field declared free (the key's usage). Lists may not reach past the plan's result window.
import {
  getArgumentValues,
  getDirectiveValues,
  getNamedType,
  GraphQLIncludeDirective,
  GraphQLSkipDirective,
  Kind,
  TypeInfo,
  visit,
  visitWithTypeInfo,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import { decodeGlobalID } from '@pothos/plugin-relay';
import { cursorPosition } from '../graphql/cursors.ts';
import { badRequest } from '../platform/errors.ts';
import { rulesOf } from './field-rules.ts';
import type { QuotaBucket } from './plans.ts';
import type { Charge } from './quota.ts';

export interface OperationCost {
  /** root fields the web app credential is needed for */
  webAppFields: string[];
  /** root fields that read data: they need an API key (or open-dev mode) */
  dataFields: string[];
  /** root fields that need their key to carry a scope */
  scopedFields: Array<{ field: string; scope: string }>;
  charge: Charge;
}

type Variables = Record<string, unknown> | undefined;

/**
 * What the operation costs. Most operations cost the same whatever their variables (no @skip or
 * @include on the root selections, no node/nodes, no field priced by a list argument): their cost
 * is worked out once per operation and schema and shared, frozen, by every later request.
 */
export function operationCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  variables: Variables,
): OperationCost {
  let ofSchema = fixedCosts.get(schema);
  const fixed = ofSchema?.get(operation);
  if (fixed) return fixed;
  const walk = { directives: false };
  const { cost, byVariables } = costOf(schema, document, operation, variables, walk);
  if (!byVariables && !walk.directives) {
    if (!ofSchema) fixedCosts.set(schema, (ofSchema = new WeakMap()));
    ofSchema.set(operation, freezeCost(cost));
  }
  return cost;
}

/** Costs that do not depend on the variables, by operation (documents are Yoga's cached parses and the persisted ones: each request of a query reuses its nodes). */
const fixedCosts = new WeakMap<GraphQLSchema, WeakMap<OperationDefinitionNode, OperationCost>>();

function freezeCost(cost: OperationCost): OperationCost {
  Object.freeze(cost.webAppFields);
  Object.freeze(cost.dataFields);
  for (const field of cost.scopedFields) Object.freeze(field);
  Object.freeze(cost.scopedFields);
  Object.freeze(cost.charge.buckets);
  Object.freeze(cost.charge);
  return Object.freeze(cost);
}

function costOf(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  variables: Variables,
  walk: RootWalk,
): { cost: OperationCost; byVariables: boolean } {
  const cost: OperationCost = {
    webAppFields: [],
    dataFields: [],
    scopedFields: [],
    charge: { units: 0, buckets: {} },
  };
  /** whether a field's cost was read from its arguments (node ids, a list's length) */
  let byVariables = false;
  const rootType = schema.getRootType(operation.operation);
  const count = (bucket: QuotaBucket | undefined, units: number) => {
    cost.charge.units += units;
    if (bucket) cost.charge.buckets[bucket] = (cost.charge.buckets[bucket] ?? 0) + units;
  };

  // GraphQL merges the root fields of one response name into one execution: count each name once
  const executed = new Map<string, FieldNode>();
  for (const field of rootFields(document, operation.selectionSet, variables, walk))
    executed.set(field.alias?.value ?? field.name.value, field);
  for (const field of executed.values()) {
    const name = field.name.value;
    if (name.startsWith('__')) continue;
    const definition = rootType?.getFields()[name];
    const declared = rulesOf(definition);
    if (declared.webAppOnly) {
      cost.webAppFields.push(name);
      continue;
    }
    if (declared.free) continue;
    if ((name === 'node' || name === 'nodes') && definition) {
      byVariables = true;
      const args = getArgumentValues(definition, field, variables);
      const ids: unknown[] = name === 'node' ? [args.id] : Array.isArray(args.ids) ? args.ids : [];
      const types = ids.map((id) => rulesOf(schema.getType(typeOfGlobalId(id))));
      // ids of types only the web app reads (ApiKey) are a web-app call, as apiKeys is
      if (types.length > 0 && types.every((type) => type.webAppOnly)) {
        cost.webAppFields.push(name);
        continue;
      }
      cost.dataFields.push(name);
      for (const type of types) count(type.quota, 1);
      continue;
    }
    cost.dataFields.push(name);
    if (declared.scope) cost.scopedFields.push({ field: name, scope: declared.scope });
    if (declared.unitsFound) {
      // its bucket is charged by the resolver, per item found (chargeFound, admission.ts)
      count(undefined, 1);
      continue;
    }
    if (declared.unitsFrom && definition) {
      byVariables = true;
      // a call whose cost is the length of a list argument (one scrape per URL, spec part 8)
      let list: unknown;
      try {
        list = getArgumentValues(definition, field, variables)[declared.unitsFrom];
      } catch {
        list = undefined; // invalid arguments are execution's to report; the call still costs one
      }
      count(declared.quota, Array.isArray(list) ? Math.max(1, list.length) : 1);
      continue;
    }
    // fields without a declared bucket (e.g. Signals) still count against the rate and per-key ceiling
    count(declared.quota, 1);
  }
  return { cost, byVariables };
}

function typeOfGlobalId(id: unknown): string {
  try {
    return decodeGlobalID(String(id)).typename;
  } catch {
    return '';
  }
}

function included(
  node: FieldNode | { directives?: FieldNode['directives'] },
  variables: Variables,
): boolean {
  if (getDirectiveValues(GraphQLSkipDirective, node, variables)?.if === true) return false;
  return getDirectiveValues(GraphQLIncludeDirective, node, variables)?.if !== false;
}

/** What a walk of the root selections met: directives make the fields executed depend on the variables. */
interface RootWalk {
  directives: boolean;
}

/** The root fields an operation executes, through fragments, honouring @skip and @include. */
function rootFields(
  document: DocumentNode,
  selectionSet: SelectionSetNode,
  variables: Variables,
  walk: RootWalk,
  seen = new Set<string>(),
): FieldNode[] {
  const fragments = new Map(
    document.definitions
      .filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION)
      .map((d) => [d.name.value, d]),
  );
  const fields: FieldNode[] = [];
  for (const selection of selectionSet.selections) {
    if (selection.directives?.length) walk.directives = true;
    if (!included(selection, variables)) continue;
    if (selection.kind === Kind.FIELD) fields.push(selection);
    else if (selection.kind === Kind.INLINE_FRAGMENT)
      fields.push(...rootFields(document, selection.selectionSet, variables, walk, seen));
    else {
      const name = selection.name.value;
      const fragment = fragments.get(name);
      if (!fragment || seen.has(name)) continue;
      seen.add(name);
      if (fragment.directives?.length) walk.directives = true;
      fields.push(...rootFields(document, fragment.selectionSet, variables, walk, seen));
    }
  }
  return fields;
}

/**
 * A connection field of a document, cut down to its `after` and `first` (the filter and the rest
 * are not coerced): read once when they hold no variable, else each request.
 */
interface ConnectionField {
  definition: GraphQLField<unknown, unknown>;
  node: FieldNode;
  /** the window arguments hold no variable: `args` are the same every request */
  literal: boolean;
  /** the literal window arguments; undefined when they are invalid */
  args?: WindowArgs;
}

interface WindowArgs {
  after?: unknown;
  first?: unknown;
}

const WINDOW_ARGS = new Set(['after', 'first']);

/** The connection fields of each document, found once per document: the walk with type info is the costly part. */
const connectionFieldsByDocument = new WeakMap<DocumentNode, ConnectionField[]>();

function connectionFieldsOf(schema: GraphQLSchema, document: DocumentNode) {
  let found = connectionFieldsByDocument.get(document);
  if (found) return found;
  found = [];
  const fields = found;
  const typeInfo = new TypeInfo(schema);
  visit(
    document,
    visitWithTypeInfo(typeInfo, {
      Field(node) {
        const definition = typeInfo.getFieldDef();
        if (!definition?.args.some((a) => WINDOW_ARGS.has(a.name))) return;
        if (!getNamedType(definition.type).name.endsWith('Connection')) return;
        const field = {
          definition: {
            ...definition,
            args: definition.args.filter((a) => WINDOW_ARGS.has(a.name)),
          },
          node: {
            ...node,
            arguments: node.arguments?.filter((a) => WINDOW_ARGS.has(a.name.value)),
          },
        };
        const literal = !field.node.arguments?.some((a) => a.value.kind === Kind.VARIABLE);
        fields.push({ ...field, literal, args: literal ? windowArgs(field, {}) : undefined });
      },
    }),
  );
  connectionFieldsByDocument.set(document, fields);
  return fields;
}

/** A field's window arguments, or undefined when they are invalid (validation's to report). */
function windowArgs(
  field: Pick<ConnectionField, 'definition' | 'node'>,
  variables: Variables,
): WindowArgs | undefined {
  try {
    return getArgumentValues(field.definition, field.node, variables);
  } catch {
    return undefined;
  }
}

/**
 * Refuses a list read past the plan's result window: any field with connection arguments whose
 * offset (from `after`) plus page size (`first`) exceeds `window`. It names GraphQL's arguments;
 * REST tells the same rule in its offset/limit (rest/graphql-errors.ts).
 */
export function checkResultWindow(
  schema: GraphQLSchema,
  document: DocumentNode,
  variables: Variables,
  {
    window,
    planName,
    defaultPageSize,
  }: { window: number; planName: string; defaultPageSize: number },
): void {
  for (const field of connectionFieldsOf(schema, document)) {
    const args = field.literal ? field.args : windowArgs(field, variables);
    if (!args) continue;
    const offset = typeof args.after === 'string' ? safeOffset(args.after) : 0;
    const first = typeof args.first === 'number' ? args.first : defaultPageSize;
    if (offset !== undefined && offset + first > window) throw resultWindowError(window, planName);
  }
}

function safeOffset(cursor: string): number | undefined {
  const position = cursorPosition(cursor);
  return position && position.offset + 1;
}

export const resultWindowError = (window: number, planName: string) =>
  badRequest(
    `The ${planName} plan lists at most ${window} items deep: the position after \`after\` + \`first\` must not exceed ${window}.`,
    {
      parameter: 'after',
      rule: `the position after \`after\` + \`first\` must be at most ${window} on the ${planName} plan`,
    },
  );
