// Every type, field, argument, enum value and input field of the published schema says what it
// holds (issue 32 item 8): a frontend engineer reads the SDL, GraphiQL or the generated client,
// never the resolvers. A definition added without its description fails here.
import {
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isIntrospectionType,
  isObjectType,
  isSpecifiedDirective,
  isSpecifiedScalarType,
} from 'graphql';
import { describe, expect, it } from 'vitest';
import { schema } from '../../src/gateway/schema.ts';

const described = (thing: { description?: string | null }) =>
  (thing.description ?? '').trim().length > 0;

function undescribed(): string[] {
  const missing: string[] = [];
  for (const type of Object.values(schema.getTypeMap())) {
    if (isIntrospectionType(type) || isSpecifiedScalarType(type)) continue;
    if (!described(type)) missing.push(type.name);
    if (isObjectType(type) || isInterfaceType(type) || isInputObjectType(type)) {
      for (const field of Object.values(type.getFields())) {
        if (!described(field)) missing.push(`${type.name}.${field.name}`);
        for (const arg of 'args' in field ? field.args : []) {
          if (!described(arg)) missing.push(`${type.name}.${field.name}(${arg.name})`);
        }
      }
    }
    if (isEnumType(type)) {
      for (const value of type.getValues()) {
        if (!described(value)) missing.push(`${type.name}.${value.name}`);
      }
    }
  }
  for (const directive of schema.getDirectives()) {
    if (isSpecifiedDirective(directive)) continue;
    if (!described(directive)) missing.push(`@${directive.name}`);
    for (const arg of directive.args) {
      if (!described(arg)) missing.push(`@${directive.name}(${arg.name})`);
    }
  }
  return missing;
}

describe('schema descriptions', () => {
  it('describes every type, field, argument, enum value and input field', () => {
    expect(undescribed()).toEqual([]);
  });
});
