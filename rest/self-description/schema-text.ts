// Compact, human-readable renderings of OpenAPI (JSON Schema 2020-12) schemas for docs.md and
// llms.txt: `StoreCard[]`, `string | null`, `"up" | "down"`, `{latest: TrafficMix | null}`.
import type { ReferenceObject, SchemaObject } from 'openapi3-ts/oas31';

export type Schema = SchemaObject | ReferenceObject;

export const isRef = (schema: Schema): schema is ReferenceObject => '$ref' in schema;

export const refName = (ref: ReferenceObject) => ref.$ref.slice(ref.$ref.lastIndexOf('/') + 1);

export function typeText(schema: Schema | undefined): string {
  if (!schema) return 'any';
  if (isRef(schema)) return refName(schema);
  if (schema.anyOf || schema.oneOf)
    return (schema.anyOf ?? schema.oneOf ?? []).map(typeText).join(' | ');
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (schema.enum) return schema.enum.map((value) => JSON.stringify(value)).join(' | ');
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  if (types.length === 0) return 'any';
  return types.map((type) => singleType(schema, type)).join(' | ');
}

function singleType(schema: SchemaObject, type: string): string {
  if (type === 'array') {
    const items = typeText(schema.items as Schema | undefined);
    return items.includes(' ') ? `(${items})[]` : `${items}[]`;
  }
  if (type === 'object' && schema.properties) {
    const fields = Object.entries(schema.properties).map(
      ([name, field]) => `${name}: ${typeText(field)}`,
    );
    return `{${fields.join(', ')}}`;
  }
  if (type === 'object' && typeof schema.additionalProperties === 'object') {
    return `{[key: string]: ${typeText(schema.additionalProperties)}}`;
  }
  if (type === 'string' && schema.format) return `string (${schema.format})`;
  return type;
}

/** Range, length, pattern and default of a parameter, e.g. "1 to 100, default 20". */
export function constraintText(schema: Schema | undefined): string {
  if (!schema || isRef(schema)) return '';
  const parts: string[] = [];
  if (schema.minimum !== undefined && schema.maximum !== undefined)
    parts.push(`${schema.minimum} to ${schema.maximum}`);
  else if (schema.minimum !== undefined) parts.push(`at least ${schema.minimum}`);
  else if (schema.maximum !== undefined) parts.push(`at most ${schema.maximum}`);
  if (schema.maxLength !== undefined) parts.push(`at most ${schema.maxLength} characters`);
  if (schema.pattern) parts.push(`pattern \`${schema.pattern}\``);
  return parts.join(', ');
}

export const defaultText = (schema: Schema | undefined) =>
  schema && !isRef(schema) && schema.default !== undefined ? JSON.stringify(schema.default) : '';

export const descriptionOf = (schema: Schema | undefined) =>
  schema && !isRef(schema) && typeof schema.description === 'string' ? schema.description : '';
