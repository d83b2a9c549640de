// The root types say what they hold: Mutation's and Subscription's descriptions name every one of
// their fields, so a field added without its word in the description fails here.
import { describe, expect, it } from 'vitest';
import { schema } from '../../src/gateway/schema.ts';

describe('root type descriptions', () => {
  for (const type of [schema.getMutationType()!, schema.getSubscriptionType()!]) {
    it(`${type.name} names each of its fields`, () => {
      const missing = Object.keys(type.getFields()).filter(
        (field) => !type.description?.includes(field),
      );
      expect(missing).toEqual([]);
    });
  }
});
