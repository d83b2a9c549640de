// A field's arguments are validated in the same turn as the field resolves (no promise per field),
// with zod 4's compiled object parser; failures reach the builder's validationError as the zod
// plugin's own do, and a schema holding an async refinement is still awaited.
import SchemaBuilder from '@pothos/core';
import { execute, parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import ZodPlugin from '../../src/graphql/args-validation.ts';

function schema() {
  const builder = new SchemaBuilder<{ Context: object }>({
    plugins: [ZodPlugin],
    zod: { validationError: (error) => `refused: ${error.issues[0]?.message}` },
  });
  const Range = builder.inputType('Range', {
    fields: (t) => ({
      min: t.int({ validate: { type: 'number', min: [0, { message: 'min below 0' }] } }),
      max: t.int(),
    }),
  });
  builder.queryType({
    fields: (t) => ({
      width: t.int({
        args: { range: t.arg({ type: Range, required: true }) },
        resolve: (_, { range }) => (range.max ?? 0) - (range.min ?? 0),
      }),
      checked: t.string({
        args: {
          word: t.arg.string({
            required: true,
            validate: {
              schema: z.string().refine(async (word) => word !== 'no', { message: 'said no' }),
            },
          }),
        },
        resolve: (_, { word }) => word,
      }),
    }),
  });
  return builder.toSchema();
}

const run = (source: string) => execute({ schema: schema(), document: parse(source) });

describe('argument validation', () => {
  it('answers a field whose arguments validate without a promise', () => {
    const result = run('{ width(range: { min: 2, max: 7 }) }');
    expect(result).not.toBeInstanceOf(Promise);
    expect(result).toEqual({ data: { width: 5 } });
  });

  it('refuses bad arguments through validationError', () => {
    const result = run('{ width(range: { min: -1, max: 7 }) }');
    expect(result).not.toBeInstanceOf(Promise);
    expect(result).toMatchObject({
      data: { width: null },
      errors: [{ message: 'refused: min below 0' }],
    });
  });

  it('awaits an async refinement, valid or not', async () => {
    expect(await run('{ checked(word: "yes") }')).toEqual({ data: { checked: 'yes' } });
    expect(await run('{ checked(word: "no") }')).toMatchObject({
      data: { checked: null },
      errors: [{ message: 'refused: said no' }],
    });
  });
});
