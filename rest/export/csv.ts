// CSV of list items (RFC 4180): one column per leaf field of the item's response schema, nested
// objects flattened to dotted names (monthlyRevenueUsd.low), so every row has the same columns
// whatever it holds (a null traffic.latest gives empty cells). Arrays and free-form objects are
// written as JSON. Text that a spreadsheet would run as a formula (=, +, -, @ first, also after
// leading spaces or in full-width form) is quoted with a leading apostrophe, as OWASP advises for CSV from untrusted sources (storefront text).
import { z } from 'zod';

/** The item schema's leaf fields as dotted paths, in schema order. */
export function csvColumns(item: z.ZodType): string[] {
  const inner = unwrap(item);
  if (!(inner instanceof z.ZodObject)) return [];
  return Object.entries(inner.shape as Record<string, z.ZodType>).flatMap(([name, field]) => {
    const nested = unwrap(field);
    if (nested instanceof z.ZodObject && Object.keys(nested.shape).length > 0)
      return csvColumns(nested).map((path) => `${name}.${path}`);
    return [name];
  });
}

/** The schema under optional, nullable, default and `X | null` wrappers. */
function unwrap(schema: z.ZodType): z.ZodType {
  if (
    schema instanceof z.ZodOptional ||
    schema instanceof z.ZodNullable ||
    schema instanceof z.ZodDefault
  )
    return unwrap(schema.unwrap() as z.ZodType);
  if (schema instanceof z.ZodUnion) {
    const present = (schema.options as z.ZodType[]).filter(
      (option) => !(option instanceof z.ZodNull),
    );
    if (present.length === 1) return unwrap(present[0]!);
  }
  return schema;
}

const valueAt = (item: unknown, path: string): unknown =>
  path
    .split('.')
    .reduce<unknown>(
      (value, key) =>
        value !== null && typeof value === 'object'
          ? (value as Record<string, unknown>)[key]
          : undefined,
      item,
    );

/**
 * A formula's first character (=, +, -, @, in their full-width and small forms too), after any
 * whitespace a spreadsheet skips (spaces, NBSP, ideographic and zero-width spaces), or a tab, CR or LF first.
 */
const FORMULA_START =
  /^(?:[\s\u200b\u2060]*[=+\-@\uff1d\uff0b\uff0d\uff20\ufe66\ufe62\ufe63\ufe6b]|[\t\r\n])/u;

function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  const safe = typeof value === 'string' && FORMULA_START.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export const csvLine = (cells: readonly unknown[]) => `${cells.map(cell).join(',')}\r\n`;

export const csvRow = (columns: readonly string[], item: unknown) =>
  csvLine(columns.map((column) => valueAt(item, column)));
